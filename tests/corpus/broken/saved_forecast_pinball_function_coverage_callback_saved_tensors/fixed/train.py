"""Quantile forecasting of daily retail demand: a small MLP predicts the 90th percentile of
the next day's sales from the last two weeks. The pinball loss is a custom autograd
Function; a coverage callback reports how often the actual demand stayed under the
predicted quantile, from the residuals the loss already computed."""
import torch
import torch.nn as nn

LOOKBACK, QUANTILE = 14, 0.9


class PinballLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pred, target, q):
        residual = target - pred
        ctx.q = q
        ctx.save_for_backward(residual)
        return torch.maximum(q * residual, (q - 1) * residual).mean()

    @staticmethod
    def backward(ctx, grad_out):
        residual, = ctx.saved_tensors
        slope = torch.where(residual > 0, -ctx.q, 1 - ctx.q) / residual.numel()
        return grad_out * slope, None, None


class CoverageMonitor:
    def __init__(self, every=2):
        self.every = every

    def on_train_batch_end(self, trainer, loss):
        if trainer.global_step % self.every:
            return
        residual = trainer.last_residual
        coverage = (residual <= 0).float().mean().item()
        print(f"step {trainer.global_step} pinball {loss.item():.4f} "
              f"coverage {coverage:.2f} (target {QUANTILE})")


class Trainer:
    def __init__(self, model, callbacks, lr=5e-3):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.global_step = 0
        self.last_residual = None

    def training_step(self, window, target):
        pred = self.model(window).squeeze(1)
        loss = PinballLoss.apply(pred, target, QUANTILE)
        self.last_residual = (target - pred).detach()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss

    def fit(self, batches):
        for window, target in batches:
            loss = self.training_step(window, target)
            self.global_step += 1
            for cb in self.callbacks:
                cb.on_train_batch_end(self, loss)


def demand_batches(n_batches=6, batch=32):
    days = torch.arange(400, dtype=torch.float32)
    sales = 20 + 5 * torch.sin(2 * torch.pi * days / 7) + torch.randn(400).abs() * 4
    starts = torch.randint(0, 400 - LOOKBACK - 1, (n_batches, batch))
    offsets = torch.arange(LOOKBACK)
    return [(sales[s[:, None] + offsets] / 20, sales[s + LOOKBACK] / 20) for s in starts]


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(LOOKBACK, 32), nn.ReLU(), nn.Linear(32, 1))
Trainer(model, callbacks=[CoverageMonitor()]).fit(demand_batches())
