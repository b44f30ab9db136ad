"""Train a small momentum model end to end on the Sharpe ratio of its own trades,
instead of on forecast MSE, with a callback-driven Trainer."""
import torch
import torch.nn as nn

from strategy import sharpe_loss

WINDOW = 16


def synthetic_returns(n_assets, length, gen, phi=0.3, vol=0.01):
    """AR(1) daily returns: yesterday's move partly persists (momentum)."""
    eps = vol * torch.randn(n_assets, length, generator=gen)
    r = torch.zeros(n_assets, length)
    for t in range(1, length):
        r[:, t] = phi * r[:, t - 1] + eps[:, t]
    return r


def windows(returns):
    x = returns.unfold(1, WINDOW, 1)[:, :-1]              # (assets, n, WINDOW)
    y = returns[:, WINDOW:]                               # next-day return after each window
    return x.reshape(-1, WINDOW), y.reshape(-1)


class SignalNet(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(WINDOW, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x / 0.01).squeeze(-1)


class HitRate:
    """Share of days where the signal had the sign of the next return."""

    def on_epoch_end(self, trainer, logs):
        with torch.no_grad():
            signal = trainer.model(trainer.val_x)
            logs["hit_rate"] = (torch.sign(signal) == torch.sign(trainer.val_y)).float().mean().item()


class PrintLogs:
    def on_epoch_end(self, trainer, logs):
        print(f"epoch {logs['epoch']} " + " ".join(f"{k} {v:.4f}" for k, v in logs.items() if k != "epoch"))


class Trainer:
    def __init__(self, model, train_data, val_data, callbacks, lr=3e-3, batch=128):
        self.model = model
        self.train_x, self.train_y = train_data
        self.val_x, self.val_y = val_data
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.batch = batch
        self.gen = torch.Generator().manual_seed(1)

    def fit(self, epochs):
        for epoch in range(epochs):
            perm = torch.randperm(len(self.train_x), generator=self.gen)
            losses = []
            for start in range(0, len(perm), self.batch):
                idx = perm[start:start + self.batch]
                signal = self.model(self.train_x[idx])
                loss = sharpe_loss(signal, self.train_y[idx])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                losses.append(loss.item())
            logs = {"epoch": epoch, "neg_sharpe": sum(losses) / len(losses)}
            for cb in self.callbacks:
                cb.on_epoch_end(self, logs)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
train_data = windows(synthetic_returns(4, 80, gen))
val_data = windows(synthetic_returns(2, 60, gen))
trainer = Trainer(SignalNet(), train_data, val_data, callbacks=[HitRate(), PrintLogs()])
trainer.fit(epochs=3)
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
