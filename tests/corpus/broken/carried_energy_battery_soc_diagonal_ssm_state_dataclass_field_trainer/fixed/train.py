"""State-of-charge (SOC) estimation for an EV battery pack from current, voltage and
temperature, with a small diagonal state-space model run in recurrent mode. Drive cycles are
long, so each cycle is fed window by window and the SSM state is handed from one window to
the next (the estimator has to integrate current over the whole cycle)."""
import math
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

N_SIGNALS, D_MODEL, D_STATE, WINDOW, N_WINDOWS = 3, 12, 8, 10, 4


@dataclass
class CycleState:
    ssm: Optional[torch.Tensor] = None
    windows_seen: int = 0
    last_mae: float = math.nan


class DiagonalSSM(nn.Module):
    def __init__(self, d_model, d_state):
        super().__init__()
        self.log_rate = nn.Parameter(torch.linspace(-3.0, 0.0, d_state))
        self.B = nn.Linear(d_model, d_state, bias=False)
        self.C = nn.Linear(d_state, d_model)
        self.D = nn.Parameter(torch.ones(d_model))

    def forward(self, u, x):
        decay = torch.exp(-self.log_rate.exp())
        if x is None:
            x = u.new_zeros(u.size(0), decay.numel())
        bu = self.B(u)
        states = []
        for t in range(u.size(1)):
            x = decay * x + bu[:, t]
            states.append(x)
        y = self.C(torch.stack(states, dim=1)) + self.D * u
        return y, x


class SocEstimator(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(N_SIGNALS, D_MODEL)
        self.ssm = DiagonalSSM(D_MODEL, D_STATE)
        self.head = nn.Linear(D_MODEL, 1)

    def forward(self, signals, state):
        y, state = self.ssm(F.silu(self.inp(signals)), state)
        return torch.sigmoid(self.head(F.silu(y))).squeeze(-1), state


class Trainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.cycle = CycleState()

    def start_cycle(self):
        self.cycle = CycleState()

    def train_window(self, signals, soc):
        pred, state = self.model(signals, self.cycle.ssm)
        self.cycle.ssm = state.detach()
        loss = F.mse_loss(pred, soc)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.cycle.windows_seen += 1
        self.cycle.last_mae = (pred - soc).abs().mean().item()
        return loss.item()


def drive_cycles(n_cycles, batch, generator):
    """Coulomb counting ground truth: SOC falls with the integrated discharge current."""
    steps = WINDOW * N_WINDOWS
    for _ in range(n_cycles):
        current = 0.5 + torch.rand(batch, steps, generator=generator)
        soc = 0.95 - 0.01 * current.cumsum(dim=1)
        voltage = 3.2 + 0.9 * soc - 0.05 * current
        temperature = 0.25 + 0.01 * torch.randn(batch, steps, generator=generator)
        yield torch.stack([current, voltage, temperature], dim=-1), soc


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    trainer = Trainer(SocEstimator())
    for cycle, (signals, soc) in enumerate(drive_cycles(2, batch=4, generator=gen)):
        trainer.start_cycle()
        for w in range(N_WINDOWS):
            span = slice(w * WINDOW, (w + 1) * WINDOW)
            loss = trainer.train_window(signals[:, span], soc[:, span])
            print(f"cycle {cycle} window {w} mse {loss:.5f} mae {trainer.cycle.last_mae:.4f}")


if __name__ == "__main__":
    main()
