"""Transfer a global demand forecaster (pretrained on many stores) to a new store that also
reports promotions and temperature. The pretrained GRU encoder stays frozen; a new covariate
adapter feeds the extra inputs into the encoder and is trained together with the output head."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, N_COV, HIDDEN = 28, 7, 2, 24


class GlobalForecaster(nn.Module):
    def __init__(self, hidden=HIDDEN):
        super().__init__()
        self.value_proj = nn.Linear(1, hidden)
        self.covariate_adapter = None  # filled in when a store has extra covariates
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, HORIZON)

    def forward(self, history, covariates=None):
        h = self.value_proj(history.unsqueeze(-1))
        if self.covariate_adapter is not None and covariates is not None:
            h = h + self.covariate_adapter(covariates)
        _, last = self.encoder(torch.tanh(h))
        return self.head(last[-1])


def store_series(n_days=400, seed=3):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_days, dtype=torch.float32)
    promo = (torch.rand(n_days, generator=g) < 0.15).float()
    temp = torch.sin(2 * math.pi * t / 365) + 0.1 * torch.randn(n_days, generator=g)
    sales = 1 + 0.3 * torch.sin(2 * math.pi * t / 7) + 0.8 * promo + 0.2 * temp
    sales = sales + 0.05 * torch.randn(n_days, generator=g)
    return sales, torch.stack([promo, temp], dim=1)


def windows(sales, cov, batch_size=32, generator=None):
    starts = torch.randint(0, len(sales) - LOOKBACK - HORIZON, (batch_size,), generator=generator)
    idx = starts[:, None] + torch.arange(LOOKBACK)[None]
    future = starts[:, None] + LOOKBACK + torch.arange(HORIZON)[None]
    return sales[idx], cov[idx], sales[future]


def train(model, sales, cov, steps=6):
    g = torch.Generator().manual_seed(0)
    optimizer = torch.optim.Adam([
        {"params": model.covariate_adapter.parameters(), "lr": 1e-2},
        {"params": model.head.parameters(), "lr": 3e-3},
    ])
    for step in range(steps):
        history, covariates, target = windows(sales, cov, generator=g)
        loss = F.mse_loss(model(history, covariates), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} mse {loss.item():.4f}")


torch.manual_seed(0)
model = GlobalForecaster()
model.load_state_dict(GlobalForecaster().state_dict())  # stands in for the global checkpoint
model.covariate_adapter = nn.Linear(N_COV, HIDDEN)
nn.init.zeros_(model.covariate_adapter.weight)

# freeze the pretrained network, keep the head trainable
model.requires_grad_(False)
model.head.requires_grad_(True)

sales, cov = store_series()
train(model, sales, cov)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"trainable parameters: {trainable}")
