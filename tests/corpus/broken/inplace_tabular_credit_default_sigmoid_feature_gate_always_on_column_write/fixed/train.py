import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_FEATURES = 6
ALWAYS_ON = [0, 3]  # account age and income must always reach the scorer


class GatedScorer(nn.Module):
    """Credit-default scorer with a learned soft feature gate."""

    def __init__(self, n_features, hidden=16):
        super().__init__()
        self.gate = nn.Linear(n_features, n_features)
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        g = g.index_fill(1, torch.tensor(ALWAYS_ON), 1.0)
        return self.body(x * g).squeeze(-1), g


def make_table(n, gen):
    x = torch.randn(n, N_FEATURES, generator=gen)
    logit = 1.5 * x[:, 0] - 2.0 * x[:, 3] + 0.5 * x[:, 4]
    y = (torch.sigmoid(logit) > torch.rand(n, generator=gen)).float()
    return x, y


gen = torch.Generator().manual_seed(2)
x_all, y_all = make_table(96, gen)
model = GatedScorer(N_FEATURES)
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=1e-4)

for epoch in range(3):
    perm = torch.randperm(len(x_all), generator=gen)
    for start in range(0, len(x_all), 48):
        idx = perm[start:start + 48]
        logits, gates = model(x_all[idx])
        loss = F.binary_cross_entropy_with_logits(logits, y_all[idx]) + 1e-2 * gates.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} bce {loss.item():.4f} mean gate {gates.mean().item():.3f}")
