"""Insurance-claim severity regression with learned feature selection: a small gating
network scores every input column per row, gates below a threshold are zeroed so that each
prediction uses only a few columns (for explainability), and the gated row goes into the
regressor. The gate statistics are printed every epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ROWS, N_FEAT, BATCH, EPOCHS, THRESHOLD = 96, 10, 32, 5, 0.3


class GatedRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate_net = nn.Sequential(nn.Linear(N_FEAT, 16), nn.ReLU(), nn.Linear(16, N_FEAT))
        self.regressor = nn.Sequential(nn.Linear(N_FEAT, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        gate = torch.sigmoid(self.gate_net(x))
        mask = gate.data
        mask[mask < THRESHOLD] = 0.0
        return self.regressor(x * mask).squeeze(1), mask


torch.manual_seed(0)
gen = torch.Generator().manual_seed(21)
x = torch.randn(N_ROWS, N_FEAT, generator=gen)
severity = 3.0 * x[:, 2] + 2.0 * x[:, 5].clamp(min=0) - x[:, 7] + 0.1 * torch.randn(N_ROWS, generator=gen)

model = GatedRegressor()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(EPOCHS):
    perm = torch.randperm(N_ROWS, generator=gen)
    for start in range(0, N_ROWS, BATCH):
        idx = perm[start:start + BATCH]
        pred, mask = model(x[idx])
        loss = F.smooth_l1_loss(pred, severity[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    active = (mask > 0).float().mean(0)
    print(f"epoch {epoch} loss {loss.item():.4f} active columns {active.sum().item():.2f} "
          f"top column {int(active.argmax())}")
