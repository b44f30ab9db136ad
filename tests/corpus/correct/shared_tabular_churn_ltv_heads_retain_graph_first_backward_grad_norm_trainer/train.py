"""Churn + lifetime-value heads on one trunk.

The two task losses are backwarded separately so that the trainer can log
how hard each task pulls on the shared trunk; the first backward keeps the
graph, the second one frees it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChurnLTVNet(nn.Module):
    def __init__(self, n_features=9, width=16):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_features, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.churn = nn.Linear(width, 1)
        self.ltv = nn.Linear(width, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.churn(h).squeeze(-1), self.ltv(h).squeeze(-1)


class Trainer:
    def __init__(self, model, lr=5e-3, ltv_weight=0.5):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.ltv_weight = ltv_weight
        self.shared = list(model.trunk.parameters())
        self.history = []

    def _trunk_grad_norm(self):
        return sum(p.grad.norm() ** 2 for p in self.shared if p.grad is not None).sqrt().item()

    def step(self, x, churned, value):
        churn_logit, ltv_pred = self.model(x)
        churn_loss = F.binary_cross_entropy_with_logits(churn_logit, churned)
        ltv_loss = self.ltv_weight * F.smooth_l1_loss(ltv_pred, value)
        self.optimizer.zero_grad()
        churn_loss.backward(retain_graph=True)
        churn_norm = self._trunk_grad_norm()
        ltv_loss.backward()
        both_norm = self._trunk_grad_norm()
        self.optimizer.step()
        self.history.append((churn_loss.item(), ltv_loss.item()))
        return churn_norm, both_norm

    def fit(self, x, churned, value, epochs=3, batch=16):
        for epoch in range(epochs):
            for start in range(0, x.shape[0], batch):
                sl = slice(start, start + batch)
                churn_norm, both_norm = self.step(x[sl], churned[sl], value[sl])
            c, v = self.history[-1]
            print(f"epoch {epoch} churn {c:.4f} ltv {v:.4f} trunk_grad churn={churn_norm:.4f} total={both_norm:.4f}")


def customers(n=48, seed=21):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 9, generator=g)
    churned = (x[:, 0] - x[:, 1] > 0.3).float()
    value = F.softplus(x[:, 2] + 0.5 * x[:, 3])
    return x, churned, value


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(ChurnLTVNet())
    trainer.fit(*customers())
    checksum = sum(p.detach().double().sum().item() for p in trainer.model.parameters())
    print(f"param checksum {checksum:.6f}")
