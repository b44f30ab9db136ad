"""Continuous-glucose-monitor forecaster for a small cohort of patients.

Every 30 minutes the model reads the last hour of CGM readings, insulin and carbohydrate
events, plus the forecast it issued at the previous window (so it can correct its own bias),
and predicts the next 30 minutes of glucose.
"""
import torch
import torch.nn as nn

from loop import CohortState, train_window

N_PATIENTS, HISTORY, HORIZON, N_WINDOWS = 4, 12, 6, 7


class GlucoseForecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.encoder = nn.GRU(3, hidden, batch_first=True)
        self.head = nn.Sequential(nn.Linear(hidden + HORIZON, hidden), nn.ReLU(), nn.Linear(hidden, HORIZON))

    def forward(self, window, prev_forecast):
        scaled = window / torch.tensor([100.0, 5.0, 50.0])
        _, h = self.encoder(scaled)
        z = torch.cat([h[-1], (prev_forecast - 120.0) / 40.0], dim=-1)
        return 120.0 + 40.0 * self.head(z)


def cohort_stream(generator):
    total = HISTORY + HORIZON * N_WINDOWS
    t = torch.arange(total).float()
    basal = 110.0 + 30.0 * torch.rand(N_PATIENTS, 1, generator=generator)
    meals = (torch.rand(N_PATIENTS, total, generator=generator) < 0.08).float() * 40.0
    insulin = (torch.rand(N_PATIENTS, total, generator=generator) < 0.06).float() * 3.0
    glucose = basal + 25.0 * torch.sin(t / 9.0) + torch.cumsum(meals - 8.0 * insulin, dim=1) * 0.3
    glucose = glucose + 3.0 * torch.randn(N_PATIENTS, total, generator=generator)
    for w in range(N_WINDOWS):
        start = w * HORIZON
        past = slice(start, start + HISTORY)
        future = slice(start + HISTORY, start + HISTORY + HORIZON)
        window = torch.stack([glucose[:, past], insulin[:, past], meals[:, past]], dim=-1)
        yield window, glucose[:, future]


def main():
    torch.manual_seed(0)
    model = GlucoseForecaster()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    state = CohortState(prev_forecast=torch.full((N_PATIENTS, HORIZON), 120.0))
    for w, (window, target) in enumerate(cohort_stream(torch.Generator().manual_seed(11))):
        loss = train_window(model, optimizer, state, window, target)
        print(f"window {w} loss {loss:.3f}")
    print("windows seen", state.windows_seen)


if __name__ == "__main__":
    main()
