"""Online daily demand forecasting for a handful of stores: an exponentially smoothed
level per store (with a learned smoothing factor) plus a small network for the
day-of-week and promotion effects. The model is updated after every day, as a live
system would be."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_STORES, DAYS = 8, 14


def simulate_demand():
    base = 50 + 20 * torch.rand(N_STORES)
    dow = torch.arange(DAYS) % 7
    promo = (torch.rand(DAYS, N_STORES) < 0.2).float()
    weekly = 8 * torch.sin(2 * math.pi * dow / 7)[:, None]
    demand = base + weekly + 15 * promo + 3 * torch.randn(DAYS, N_STORES)
    return demand / 50.0, dow, promo


class EffectNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.dow_emb = nn.Embedding(7, 8)
        self.mlp = nn.Sequential(nn.Linear(9, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, dow, promo):
        feats = torch.cat([self.dow_emb(dow).expand(len(promo), -1), promo[:, None]], dim=1)
        return self.mlp(feats).squeeze(1)


def make_online_learner(effects, alpha_logit, optimizer, first_day):
    level = first_day.clone()

    def update(prev_demand, dow, promo, demand_today):
        nonlocal level
        alpha = torch.sigmoid(alpha_logit)
        level = alpha * prev_demand + (1 - alpha) * level
        forecast = level + effects(dow, promo)
        loss = F.mse_loss(forecast, demand_today)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        return loss.item(), alpha.item()

    return update


demand, dow, promo = simulate_demand()
effects = EffectNet()
alpha_logit = nn.Parameter(torch.tensor(0.0))
optimizer = torch.optim.Adam([*effects.parameters(), alpha_logit], lr=1e-2)
update = make_online_learner(effects, alpha_logit, optimizer, demand[0])
for day in range(1, DAYS):
    loss, alpha = update(demand[day - 1], dow[day], promo[day], demand[day])
    print(f"day {day} mse {loss:.4f} alpha {alpha:.3f}")
print(f"checksum {sum(p.sum().item() for p in effects.parameters()):.4f}")
