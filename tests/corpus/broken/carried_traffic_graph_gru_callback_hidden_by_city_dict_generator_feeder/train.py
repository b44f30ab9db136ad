"""Traffic speed forecasting for two cities with one graph-recurrent model. A generator
feeds consecutive windows of each city's sensor series, alternating between cities, and a
callback keeps each city's last hidden state so the next window of that city continues
where the previous one stopped (stateful training)."""
import math

import torch
import torch.nn.functional as F

from model import GraphGRUForecaster

WINDOW, HORIZON = 6, 3


def make_city(n_nodes, length, gen):
    adj = (torch.rand(n_nodes, n_nodes, generator=gen) < 0.35).float()
    adj = ((adj + adj.t()) > 0).float() + torch.eye(n_nodes)
    t = torch.arange(length, dtype=torch.float32)
    base = torch.sin(2 * math.pi * t / 24)[:, None] + 0.2 * torch.randn(length, n_nodes, generator=gen)
    tod = torch.cos(2 * math.pi * t / 24)[:, None].expand(-1, n_nodes)
    return adj, torch.stack([base, tod], dim=-1)   # (length, nodes, 2)


def window_feeder(cities, n_windows):
    """Yields (city, window, target, adj) for consecutive windows, cities interleaved."""
    for k in range(n_windows):
        for name, (adj, series) in cities.items():
            start = k * WINDOW
            window = series[start:start + WINDOW]
            target = series[start + WINDOW:start + WINDOW + HORIZON, :, 0].t()
            yield name, window, target, adj


class StatefulHiddenCallback:
    """Carries the hidden state of each city from one window to the next."""

    def __init__(self):
        self.h_by_city = {}

    def on_batch_start(self, trainer, batch):
        batch["h0"] = self.h_by_city.get(batch["city"])

    def on_batch_end(self, trainer, batch, outputs):
        self.h_by_city[batch["city"]] = outputs["h_last"]

    def on_epoch_start(self, trainer):
        self.h_by_city.clear()


class Trainer:
    def __init__(self, model, callbacks, lr=5e-3):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def call(self, hook, *args):
        for cb in self.callbacks:
            fn = getattr(cb, hook, None)
            if fn is not None:
                fn(self, *args)

    def training_step(self, batch):
        pred, h_last = self.model(batch["window"], batch["adj"], batch["h0"])
        return {"loss": F.mse_loss(pred, batch["target"]), "h_last": h_last}

    def fit(self, cities, epochs, n_windows):
        for epoch in range(epochs):
            self.call("on_epoch_start")
            losses = []
            for city, window, target, adj in window_feeder(cities, n_windows):
                batch = {"city": city, "window": window, "target": target, "adj": adj, "h0": None}
                self.call("on_batch_start", batch)
                outputs = self.training_step(batch)
                self.optimizer.zero_grad()
                outputs["loss"].backward()
                self.optimizer.step()
                self.call("on_batch_end", batch, outputs)
                losses.append(outputs["loss"].item())
            print(f"epoch {epoch} mse {sum(losses) / len(losses):.4f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    cities = {"metr": make_city(6, 40, gen), "pems": make_city(5, 40, gen)}
    trainer = Trainer(GraphGRUForecaster(horizon=HORIZON), [StatefulHiddenCallback()])
    trainer.fit(cities, epochs=2, n_windows=3)


if __name__ == "__main__":
    main()
