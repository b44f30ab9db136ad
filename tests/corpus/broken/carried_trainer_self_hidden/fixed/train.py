"""Trainer class keeps the RNN hidden state on self.hidden between train steps."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_IN, N_HID, BATCH = 3, 16, 2


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(N_IN, N_HID, batch_first=True)
        self.proj = nn.Linear(N_HID, 1)

    def forward(self, x, hidden):
        out, hidden = self.rnn(x, hidden)
        return self.proj(out), hidden


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.loss_fn = nn.MSELoss()
        self.hidden = torch.zeros(1, BATCH, N_HID)

    def train_step(self, x, y):
        self.opt.zero_grad()
        self.hidden = self.hidden.detach()
        out, self.hidden = self.model(x, self.hidden)
        loss = self.loss_fn(out, y)
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, batches, epochs=1):
        history = []
        for _ in range(epochs):
            for x, y in batches:
                history.append(self.train_step(x, y))
        return history


batches = [(torch.randn(BATCH, 5, N_IN), torch.randn(BATCH, 5, 1)) for _ in range(4)]
trainer = Trainer(Forecaster())
history = trainer.fit(batches)
print("losses", " ".join(f"{v:.4f}" for v in history))
