"""A model with an auxiliary probe head that is only used at evaluation time. Its
parameters are deliberately left out of the optimizer; only encoder + main head train."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(9, 24), nn.ReLU(), nn.Linear(24, 16), nn.ReLU())
        self.main_head = nn.Linear(16, 4)
        self.aux_head = nn.Linear(16, 2)  # probe, evaluated only

    def forward(self, x):
        return self.main_head(self.encoder(x))

    @torch.no_grad()
    def probe(self, x):
        return self.aux_head(self.encoder(x))


class Trainer:
    def __init__(self, model):
        self.model = model
        trainable = list(model.encoder.parameters()) + list(model.main_head.parameters())
        self.optimizer = torch.optim.Adam(trainable, lr=1e-2)
        self.history = []

    def train_epoch(self, data):
        self.model.train()
        for x, y in data:
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            self.history.append(loss.item())

    def evaluate(self, x, aux_y):
        self.model.eval()
        probe_acc = (self.model.probe(x).argmax(1) == aux_y).float().mean().item()
        return probe_acc


model = Model()
trainer = Trainer(model)
data = [(torch.randn(8, 9), torch.randint(0, 4, (8,))) for _ in range(3)]
eval_x, eval_aux = torch.randn(20, 9), torch.randint(0, 2, (20,))
for epoch in range(2):
    trainer.train_epoch(data)
    print(f"epoch {epoch} loss {trainer.history[-1]:.6f} probe acc {trainer.evaluate(eval_x, eval_aux):.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
