"""Hybrid rainfall-runoff model for one catchment, trained window by window.

A conceptual soil bucket (learned capacity and drainage rate) is run day by day; a small
network corrects the bucket's outflow using the day's forcings and yesterday's simulated
discharge. The soil storage and the last simulated discharge are carried from one training
window to the next (the catchment does not forget its wetness), detached at the window
boundary: truncated backpropagation through time.
"""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

DAYS_PER_WINDOW, N_WINDOWS = 15, 6


class HybridBucket(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.log_capacity = nn.Parameter(torch.tensor(4.0))
        self.logit_drain = nn.Parameter(torch.tensor(-2.0))
        self.correction = nn.Sequential(nn.Linear(4, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def step(self, storage, prev_q, rain, pet):
        capacity = self.log_capacity.exp()
        drain = torch.sigmoid(self.logit_drain)
        wet = storage + rain
        spill = F.softplus(wet - capacity)
        evap = pet * torch.sigmoid(wet / capacity * 4.0 - 2.0)
        baseflow = drain * (wet - spill)
        storage = (wet - spill - evap - baseflow).clamp(min=0.0)
        features = torch.stack([rain / 10.0, pet / 5.0, storage / capacity, prev_q / 10.0])
        q = F.softplus(spill + baseflow + self.correction(features).squeeze(-1))
        return storage, q


@dataclass
class CatchmentState:
    storage: torch.Tensor
    last_q: torch.Tensor
    losses: list = field(default_factory=list)


def forcing_record(generator):
    days = DAYS_PER_WINDOW * N_WINDOWS
    storms = (torch.rand(days, generator=generator) < 0.25).float()
    rain = storms * 20.0 * torch.rand(days, generator=generator)
    pet = 2.0 + 1.5 * torch.sin(torch.arange(days).float() / 20.0)
    s, q_obs = torch.tensor(30.0), []
    for r, e in zip(rain, pet):
        s = s + r
        spill = torch.clamp(s - 70.0, min=0.0)
        s = s - spill
        base = 0.08 * s
        s = torch.clamp(s - base - 0.6 * e, min=0.0)
        q_obs.append(spill + base)
    q_obs = torch.stack(q_obs) * (1.0 + 0.05 * torch.randn(days, generator=generator))
    return rain, pet, q_obs


class Trainer:
    def __init__(self):
        self.model = HybridBucket()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-2)
        self.state = CatchmentState(storage=torch.tensor(30.0), last_q=torch.tensor(2.0))

    def train_window(self, rain, pet, q_obs):
        # truncate BPTT at the window boundary: the wetness and yesterday's discharge
        # carry over as values, the previous window's graph does not
        storage = self.state.storage.detach()
        prev_q = self.state.last_q.detach()
        sims = []
        for r, e in zip(rain, pet):
            storage, prev_q = self.model.step(storage, prev_q, r, e)
            sims.append(prev_q)
        sim = torch.stack(sims)
        loss = F.mse_loss(torch.log1p(sim), torch.log1p(q_obs))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.state.storage, self.state.last_q = storage, prev_q
        self.state.losses.append(loss.item())
        return loss.item()


def main():
    torch.manual_seed(0)
    rain, pet, q_obs = forcing_record(torch.Generator().manual_seed(9))
    trainer = Trainer()
    for w in range(N_WINDOWS):
        days = slice(w * DAYS_PER_WINDOW, (w + 1) * DAYS_PER_WINDOW)
        loss = trainer.train_window(rain[days], pet[days], q_obs[days])
        print(f"window {w} log-flow mse {loss:.5f} storage {trainer.state.storage.item():.2f}")
    checksum = sum(p.detach().double().sum().item() for p in trainer.model.parameters())
    print(f"mean loss {sum(trainer.state.losses) / len(trainer.state.losses):.5f}")
    print(f"parameter checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
