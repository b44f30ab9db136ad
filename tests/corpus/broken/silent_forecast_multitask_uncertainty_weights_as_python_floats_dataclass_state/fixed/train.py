"""Grid-load forecasting with two tasks sharing one GRU encoder: next-hour load (regression)
and "is the next hour a peak" (classification). The two losses are balanced with learned
homoscedastic-uncertainty weights (Kendall et al.); all training state lives in a dataclass."""
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
WINDOW, HIDDEN, BATCH, STEPS = 24, 16, 32, 6


class LoadForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(2, HIDDEN, batch_first=True)
        self.load_head = nn.Linear(HIDDEN, 1)
        self.peak_head = nn.Linear(HIDDEN, 1)

    def forward(self, x):
        _, h = self.encoder(x)
        h = h[-1]
        return self.load_head(h).squeeze(1), self.peak_head(h).squeeze(1)


class UncertaintyWeighting(nn.Module):
    def __init__(self, n_tasks):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))

    def task_weights(self):
        """exp(-s_i) per task, as plain floats so they can be logged."""
        return [math.exp(-s) for s in self.log_vars.tolist()]

    def forward(self, losses):
        weights = torch.exp(-self.log_vars)
        return sum(0.5 * weights[i] * loss + 0.5 * self.log_vars[i] for i, loss in enumerate(losses))


@dataclass
class TrainState:
    model: LoadForecaster
    weighting: UncertaintyWeighting
    optimizer: torch.optim.Optimizer
    step: int = 0
    history: list = field(default_factory=list)


def make_batch(n):
    t = torch.arange(WINDOW + 1).float() + 24 * torch.rand(n, 1)
    load = torch.sin(2 * math.pi * t / 24) + 0.1 * torch.randn(n, WINDOW + 1)
    temp = torch.cos(2 * math.pi * t / 24) + 0.1 * torch.randn(n, WINDOW + 1)
    x = torch.stack([load[:, :-1], temp[:, :-1]], dim=2)
    return x, load[:, -1], (load[:, -1] > 0.7).float()


def train(state, steps):
    for _ in range(steps):
        x, next_load, is_peak = make_batch(BATCH)
        load_pred, peak_logit = state.model(x)
        losses = [F.mse_loss(load_pred, next_load),
                  F.binary_cross_entropy_with_logits(peak_logit, is_peak)]
        total = state.weighting(losses)
        state.optimizer.zero_grad()
        total.backward()
        state.optimizer.step()
        state.step += 1
        state.history.append(total.item())
        w = state.weighting.task_weights()
        print(f"step {state.step} total {total.item():.4f} mse {losses[0].item():.4f} "
              f"bce {losses[1].item():.4f} weights {w[0]:.4f}/{w[1]:.4f}")
    return state


if __name__ == "__main__":
    model, weighting = LoadForecaster(), UncertaintyWeighting(2)
    optimizer = torch.optim.Adam(list(model.parameters()) + list(weighting.parameters()), lr=1e-2)
    state = train(TrainState(model, weighting, optimizer), STEPS)
    print(f"final log_vars {[round(v, 4) for v in state.weighting.log_vars.tolist()]}")
