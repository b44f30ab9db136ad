"""Distribution-feeder load forecasting with a diagonal state-space model run window by
window (truncated BPTT). Feeders arrive in interleaved mini-batches, so the SSM state of
each feeder lives in a dict keyed by feeder id, is read back when that feeder's next window
comes, and is stored detached so each window's backward stays inside its own window. A
running load scale per feeder (no_grad buffer) normalises the targets."""
from dataclasses import dataclass, field
from typing import Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEEDERS, N_COVARIATES, D_MODEL, D_STATE, WINDOW, N_WINDOWS = 4, 3, 12, 8, 8, 3


class DiagonalSSMForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(1 + N_COVARIATES, D_MODEL)
        self.log_rate = nn.Parameter(torch.linspace(-3.0, -0.5, D_STATE))
        self.B = nn.Linear(D_MODEL, D_STATE, bias=False)
        self.C = nn.Linear(D_STATE, D_MODEL)
        self.head = nn.Linear(D_MODEL, 1)
        self.register_buffer("load_scale", torch.ones(N_FEEDERS))

    def forward(self, load, covariates, state):
        u = F.gelu(self.inp(torch.cat([load.unsqueeze(-1), covariates], dim=-1)))
        decay = torch.exp(-self.log_rate.exp())
        bu = self.B(u)
        outs = []
        for t in range(u.size(1)):
            state = decay * state + bu[:, t]
            outs.append(state)
        y = self.C(torch.stack(outs, dim=1)) + u
        return self.head(F.gelu(y)).squeeze(-1), state


@dataclass
class FeederStates:
    states: Dict[int, torch.Tensor] = field(default_factory=dict)

    def read(self, feeder_ids):
        return torch.stack([self.states.get(f, torch.zeros(D_STATE)) for f in feeder_ids])

    def write(self, feeder_ids, new_states):
        for f, s in zip(feeder_ids, new_states.detach()):
            self.states[f] = s


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=4e-3)
        self.memory = FeederStates()
        self.history: List[float] = []

    @torch.no_grad()
    def update_scale(self, feeder_ids, load):
        idx = torch.tensor(feeder_ids)
        batch_scale = load.abs().mean(dim=1).clamp(min=1e-3)
        self.model.load_scale[idx] = 0.9 * self.model.load_scale[idx] + 0.1 * batch_scale

    def train_window(self, feeder_ids, load, covariates, target):
        self.update_scale(feeder_ids, load)
        scale = self.model.load_scale[torch.tensor(feeder_ids)].unsqueeze(1)
        pred, new_state = self.model(load / scale, covariates, self.memory.read(feeder_ids))
        loss = F.smooth_l1_loss(pred, target / scale)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.memory.write(feeder_ids, new_state)
        self.history.append(loss.item())
        return self.history[-1]


def feeder_series(generator):
    steps = WINDOW * N_WINDOWS + 1
    t = torch.arange(steps, dtype=torch.float32)
    base = 2.0 + torch.rand(N_FEEDERS, 1, generator=generator) * 3.0
    load = base * (1.0 + 0.3 * torch.sin(2 * torch.pi * t / 12.0)) \
        + 0.1 * torch.randn(N_FEEDERS, steps, generator=generator)
    temp = torch.cos(2 * torch.pi * t / 24.0).expand(N_FEEDERS, -1)
    covariates = torch.stack([temp, torch.sin(2 * torch.pi * t / 12.0).expand(N_FEEDERS, -1),
                              (t % 7 == 0).float().expand(N_FEEDERS, -1)], dim=-1)
    return load, covariates


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(21)
    load, covariates = feeder_series(gen)
    trainer = Trainer(DiagonalSSMForecaster())
    groups = [[0, 2], [1, 3]]
    for w in range(N_WINDOWS):
        span = slice(w * WINDOW, (w + 1) * WINDOW)
        nxt = slice(w * WINDOW + 1, (w + 1) * WINDOW + 1)
        for ids in groups:
            loss = trainer.train_window(ids, load[ids, span], covariates[ids, span], load[ids, nxt])
            print(f"window {w} feeders {ids} loss {loss:.5f}")
    checksum = sum(p.double().sum().item() for p in trainer.model.parameters())
    print(f"param checksum {checksum:.6f}")
    print("load scale", [round(v, 4) for v in trainer.model.load_scale.tolist()])


if __name__ == "__main__":
    main()
