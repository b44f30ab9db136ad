"""Weekly retail demand forecaster (MLP over lag features) trained with forecast feedback.

Windows of LAGS past weeks are taken in chronological order for a batch of stores; the model
predicts the next HORIZON weeks. A callback feeds the previous window's forecast back in as
the most recent lag.
"""
import torch
import torch.nn as nn

from callbacks import ForecastFeedback, LossLogger

N_STORES, LAGS, HORIZON, N_WEEKS = 5, 8, 2, 8 * 7


class LagMLP(nn.Module):
    def __init__(self, lags=LAGS, horizon=HORIZON, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(lags + 1, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, horizon))

    def forward(self, lags, week_of_year):
        return self.net(torch.cat([lags, week_of_year], dim=-1))


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.state = {}
        self.loss_fn = nn.MSELoss()

    def fit(self, demand):
        for cb in self.callbacks:
            cb.on_fit_start(self)
        for batch_idx, start in enumerate(range(0, demand.size(1) - LAGS - HORIZON + 1, LAGS)):
            lags = demand[:, start:start + LAGS]
            target = demand[:, start + LAGS:start + LAGS + HORIZON]
            if self.state.get("prev_forecast") is not None:
                lags = torch.cat([lags[:, :-1], self.state["prev_forecast"]], dim=1)
            week = torch.full((demand.size(0), 1), ((start + LAGS) % 52) / 52.0)
            outputs = self.model(lags, week)
            loss = self.loss_fn(outputs, target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for cb in self.callbacks:
                cb.on_batch_end(self, batch_idx, outputs, loss.item())


def weekly_demand():
    weeks = torch.arange(N_WEEKS, dtype=torch.float32)
    level = 1.0 + torch.rand(N_STORES, 1)
    season = 0.3 * torch.sin(2 * torch.pi * weeks / 52)
    return level + season + 0.05 * torch.randn(N_STORES, N_WEEKS)


def main():
    torch.manual_seed(0)
    model = LagMLP()
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-2),
                      [ForecastFeedback(), LossLogger(every=2)])
    trainer.fit(weekly_demand())


if __name__ == "__main__":
    main()
