"""One-class anomaly detection on multivariate sensor windows with Deep SVDD: a bias-free
1-D conv encoder maps normal windows close to a fixed center c; the anomaly score is the
squared distance to c. A small Trainer drives the loop and hands events to callbacks
(center initialisation, logging, held-out scoring)."""
import torch
import torch.nn as nn

N_SENSORS, WIN, REP_DIM = 3, 16, 8


class SensorEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(N_SENSORS, 8, kernel_size=5, padding=2, bias=False)
        self.pool = nn.AdaptiveAvgPool1d(4)
        self.fc = nn.Linear(8 * 4, REP_DIM, bias=False)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        return self.fc(self.pool(h).flatten(1))


class CenterInit:
    """Deep SVDD: fix c at the mean of the initial embeddings, nudged away from zero."""

    def on_fit_start(self, trainer):
        with torch.no_grad():
            c = torch.cat([trainer.model(x) for x in trainer.batches]).mean(0)
        c[(c.abs() < 0.1) & (c < 0)] = -0.1
        c[(c.abs() < 0.1) & (c >= 0)] = 0.1
        trainer.center = c


class LossLogger:
    def on_epoch_end(self, trainer, epoch, losses):
        print(f"epoch {epoch}: mean loss {sum(losses) / len(losses):.5f}")


class HeldOutScorer:
    def __init__(self, normal, anomalous):
        self.normal, self.anomalous = normal, anomalous

    def on_epoch_end(self, trainer, epoch, losses):
        with torch.no_grad():
            s_norm = trainer.score(self.normal).mean().item()
            s_anom = trainer.score(self.anomalous).mean().item()
        print(f"  score normal {s_norm:.4f} anomalous {s_anom:.4f}")


class Trainer:
    def __init__(self, model, batches, callbacks, lr=1e-3, weight_decay=1e-4):
        self.model, self.batches, self.callbacks = model, batches, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.weight_decay = weight_decay
        self.center = None

    def _emit(self, event, *args):
        for cb in self.callbacks:
            if hasattr(cb, event):
                getattr(cb, event)(self, *args)

    def score(self, x):
        return (self.model(x) - self.center).pow(2).sum(1)

    def fit(self, epochs):
        self._emit("on_fit_start")
        for epoch in range(epochs):
            losses = []
            for x in self.batches:
                w_d = self.weight_decay * sum(p.pow(2).sum() for p in self.model.parameters())
                loss = self.score(x).mean() + w_d
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                losses.append(loss.item())
            self._emit("on_epoch_end", epoch, losses)


def sensor_windows(n, anomalous=False):
    t = torch.linspace(0, 4 * torch.pi, WIN)
    base = torch.stack([torch.sin(t), torch.cos(t), torch.sin(2 * t)])
    x = base + 0.1 * torch.randn(n, N_SENSORS, WIN)
    if anomalous:
        x[:, 1, WIN // 2:] += 2.0  # stuck-high sensor
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    train_batches = list(sensor_windows(48).split(16))
    trainer = Trainer(SensorEncoder(), train_batches,
                      [CenterInit(), LossLogger(),
                       HeldOutScorer(sensor_windows(16), sensor_windows(16, anomalous=True))])
    trainer.fit(epochs=2)
