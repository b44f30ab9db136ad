"""A small Trainer with callbacks for a churn-prediction MLP.

The Trainer hands each callback a dict of outputs in which tensors are detached (loss,
logits) and the callbacks keep histories of those detached tensors or of floats. A
gradient-norm callback reads .grad after backward and before the step. At epoch end the
histories are stacked and reduced.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)


class Callback:
    def on_batch_end(self, trainer, outputs): pass
    def on_after_backward(self, trainer): pass
    def on_epoch_end(self, trainer, epoch): pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, trainer, outputs):
        self.losses.append(outputs["loss"])

    def on_epoch_end(self, trainer, epoch):
        mean = torch.stack(self.losses).mean().item()
        print(f"epoch {epoch} mean loss {mean:.6f}")
        self.losses.clear()


class Accuracy(Callback):
    def __init__(self):
        self.correct, self.seen = 0, 0

    def on_batch_end(self, trainer, outputs):
        preds = (outputs["logits"] > 0).long()
        self.correct += int((preds == outputs["target"]).sum())
        self.seen += len(preds)

    def on_epoch_end(self, trainer, epoch):
        print(f"epoch {epoch} train acc {self.correct / self.seen:.3f}")
        self.correct, self.seen = 0, 0


class GradNorm(Callback):
    def __init__(self):
        self.norms = []

    def on_after_backward(self, trainer):
        grads = [p.grad.detach().flatten() for p in trainer.model.parameters() if p.grad is not None]
        self.norms.append(torch.cat(grads).norm().item())


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for x, y in batches:
                logits = self.model(x).squeeze(1)
                loss = F.binary_cross_entropy_with_logits(logits, y.float())
                self.optimizer.zero_grad()
                loss.backward()
                for cb in self.callbacks:
                    cb.on_after_backward(self)
                self.optimizer.step()
                outputs = {"loss": loss.detach(), "logits": logits.detach(), "target": y}
                for cb in self.callbacks:
                    cb.on_batch_end(self, outputs)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def churn_batches(n_batches=3, size=24):
    out = []
    for _ in range(n_batches):
        x = torch.randn(size, 5)
        y = (x[:, 0] - 0.5 * x[:, 2] + 0.2 * torch.randn(size) > 0).long()
        out.append((x, y))
    return out


model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
grad_norm = GradNorm()
trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-2),
                  [LossHistory(), Accuracy(), grad_norm])
trainer.fit(churn_batches(), epochs=2)
print(f"grad norms {[round(g, 6) for g in grad_norm.norms]}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
