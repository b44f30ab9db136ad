"""Multi-output air-quality regressor (PM2.5, NO2, O3 from sensor features) trained by a small
callback-driven Trainer. A LossBalancer callback reweights the task losses by their inverse
training rate L_i(t) / L_i(0), as in GradNorm, so slow tasks get more weight."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TASKS = ("pm25", "no2", "o3")


class Callback:
    def on_fit_start(self, trainer): pass
    def combine(self, trainer, losses): return None
    def on_batch_end(self, trainer, loss): pass


class LossBalancer(Callback):
    def __init__(self, temperature=0.5):
        self.temperature = temperature
        self.initial_losses = None

    def combine(self, trainer, losses):
        if self.initial_losses is None:
            self.initial_losses = losses
        rate = losses.detach() / self.initial_losses
        weights = len(losses) * F.softmax(rate / self.temperature, dim=0)
        trainer.state["weights"] = weights.tolist()
        return (weights * losses).sum()


class PrintLogger(Callback):
    def on_batch_end(self, trainer, loss):
        w = " ".join(f"{t}={x:.2f}" for t, x in zip(TASKS, trainer.state["weights"]))
        print(f"step {trainer.state['step']}: loss {loss.item():.4f} weights {w}")


class AirQualityNet(nn.Module):
    def __init__(self, n_in=8):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, 32), nn.GELU(), nn.Linear(32, 32), nn.GELU())
        self.heads = nn.ModuleList(nn.Linear(32, 1) for _ in TASKS)

    def forward(self, x):
        h = self.trunk(x)
        return torch.cat([head(h) for head in self.heads], dim=1)


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
        self.state = {"step": 0, "weights": [1.0] * len(TASKS)}

    def task_losses(self, x, y):
        pred = self.model(x)
        return torch.stack([F.smooth_l1_loss(pred[:, i], y[:, i]) for i in range(len(TASKS))])

    def fit(self, batches):
        for cb in self.callbacks:
            cb.on_fit_start(self)
        for x, y in batches:
            losses = self.task_losses(x, y)
            loss = None
            for cb in self.callbacks:
                loss = cb.combine(self, losses) if loss is None else loss
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for cb in self.callbacks:
                cb.on_batch_end(self, loss)
            self.state["step"] += 1


def sensor_batches(n_batches, size=24):
    out = []
    for _ in range(n_batches):
        x = torch.randn(size, 8)
        y = torch.stack([x[:, 0] * 2 + x[:, 1], x[:, 2] - x[:, 3] ** 2, torch.tanh(x[:, 4] * 3)], 1)
        out.append((x, y))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AirQualityNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    Trainer(model, optimizer, [LossBalancer(), PrintLogger()]).fit(sensor_batches(6))
