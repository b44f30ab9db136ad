"""Multi-task customer model: churn (binary) and next-month spend (regression)
from one shared tower, trained with a hand-written Trainer whose callbacks
balance the task weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import DynamicWeightAverage, PrintProgress


class SharedTower(nn.Module):
    def __init__(self, n_feats=14, hidden=32):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(n_feats, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.churn_head = nn.Linear(hidden, 1)
        self.spend_head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.shared(x)
        return {"churn": self.churn_head(h).squeeze(1), "spend": self.spend_head(h).squeeze(1)}


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.task_weights = {}
        self.global_step = 0

    def compute_losses(self, batch):
        x, churn, spend = batch
        out = self.model(x)
        return {
            "churn": F.binary_cross_entropy_with_logits(out["churn"], churn),
            "spend": F.smooth_l1_loss(out["spend"], spend),
        }

    def fit(self, batches):
        for cb in self.callbacks:
            cb.on_fit_start(self)
        for batch in batches:
            task_losses = self.compute_losses(batch)
            total = sum(self.task_weights[t] * task_losses[t] for t in task_losses)
            self.optimizer.zero_grad()
            total.backward()
            self.optimizer.step()
            self.global_step += 1
            for cb in self.callbacks:
                cb.on_batch_end(self, task_losses)


def customer_batches(n_batches, batch_size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    w_churn = torch.randn(14, generator=g)
    w_spend = torch.randn(14, generator=g)
    for _ in range(n_batches):
        x = torch.randn(batch_size, 14, generator=g)
        churn = (x @ w_churn > 0.5).float()
        spend = torch.relu(x @ w_spend) + 0.1 * torch.randn(batch_size, generator=g)
        yield x, churn, spend


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SharedTower()
    trainer = Trainer(
        model,
        torch.optim.Adam(model.parameters(), lr=2e-3),
        callbacks=[DynamicWeightAverage(["churn", "spend"]), PrintProgress()],
    )
    trainer.fit(customer_batches(8))
    print("final weights", {t: round(float(w), 4) for t, w in trainer.task_weights.items()})
