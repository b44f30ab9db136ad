"""Seq2seq GRU forecaster for hourly load: the encoder reads 24 past hours, the decoder
rolls out the next 6. Teacher forcing is annealed by performance: the Trainer keeps the
loss history, and the ratio follows the recent loss relative to the first one, so the
decoder is fed its own predictions more often once it forecasts well."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
HISTORY, HORIZON, HIDDEN, BATCH = 24, 6, 24, 16


class Seq2SeqForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRUCell(1, HIDDEN)
        self.decoder = nn.GRUCell(1, HIDDEN)
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, history, targets=None, tf_ratio=0.0):
        h = history.new_zeros(history.shape[0], HIDDEN)
        for t in range(HISTORY):
            h = self.encoder(history[:, t], h)
        step_in = history[:, -1]
        outputs = []
        for t in range(HORIZON):
            h = self.decoder(step_in, h)
            y = self.head(h)
            outputs.append(y)
            teacher = targets is not None and torch.rand(()) < tf_ratio
            step_in = targets[:, t] if teacher else y
        return torch.stack(outputs, dim=1)


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_history = []
        self.tf_ratio = 1.0

    def train_step(self, history, future):
        pred = self.model(history, future, self.tf_ratio)
        loss = F.mse_loss(pred, future)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.loss_history.append(loss.detach())
        recent = torch.stack(self.loss_history[-3:]).mean()
        self.tf_ratio = (recent / self.loss_history[0]).clamp(0.0, 1.0).item()
        return loss.item()


def load_windows(n):
    """Daily-periodic load with noise, cut into (24 past, 6 future) windows."""
    start = torch.randint(0, 24, (n, 1)).float()
    hours = start + torch.arange(HISTORY + HORIZON).float()
    series = torch.sin(2 * math.pi * hours / 24) + 0.1 * torch.randn(n, HISTORY + HORIZON)
    return series[:, :HISTORY, None], series[:, HISTORY:, None]


trainer = Trainer(Seq2SeqForecaster())
for step in range(8):
    loss = trainer.train_step(*load_windows(BATCH))
    print(f"step {step} loss {loss:.4f} teacher forcing {trainer.tf_ratio:.2f}")
