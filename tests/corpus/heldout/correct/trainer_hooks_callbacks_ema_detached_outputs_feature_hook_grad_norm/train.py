"""Callback-driven image classifier trainer: warmup, grad-norm logging, EMA weights,
an epoch-end accuracy callback that keeps the logits of the epoch, and a forward hook
tapping the penultimate features for a feature-norm monitor."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, BATCH, STEPS, EPOCHS = 4, 16, 3, 2


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(12, 24, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(24, N_CLASSES)

    def forward(self, x):
        return self.fc(self.body(x))


class Warmup:
    def __init__(self, base_lr, steps):
        self.base_lr, self.steps = base_lr, steps

    def on_batch_start(self, tr):
        for g in tr.optimizer.param_groups:
            g["lr"] = self.base_lr * min(1.0, (tr.global_step + 1) / self.steps)


class GradNorm:
    def on_after_backward(self, tr):
        tr.log["grad_norm"] = torch.norm(torch.stack(
            [p.grad.norm() for p in tr.model.parameters() if p.grad is not None])).item()


class EMAWeights:
    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model).eval()
        for p in self.ema.parameters():
            p.requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def on_batch_end(self, tr, logits, labels):
        for e, p in zip(self.ema.parameters(), tr.model.parameters()):
            e.lerp_(p, 1 - self.decay)


class EpochAccuracy:
    def on_epoch_start(self, tr):
        self.logits, self.labels = [], []

    def on_batch_end(self, tr, logits, labels):
        self.logits.append(logits.detach())
        self.labels.append(labels)

    def on_epoch_end(self, tr):
        acc = (torch.cat(self.logits).argmax(1) == torch.cat(self.labels)).float().mean().item()
        print(f"epoch {tr.epoch}  train acc {acc:.3f}")


class FeatureNormTap:
    def __init__(self, module):
        self.last = None
        module.register_forward_hook(self.hook)

    def hook(self, module, inputs, output):
        self.last = output.detach()

    def on_batch_end(self, tr, logits, labels):
        tr.log["feat_norm"] = self.last.norm(dim=1).mean().item()


class Trainer:
    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        self.global_step, self.epoch, self.log = 0, 0, {}

    def call(self, hook, *args):
        for cb in self.callbacks:
            if hasattr(cb, hook):
                getattr(cb, hook)(self, *args)

    def fit(self, batches):
        for self.epoch in range(EPOCHS):
            self.call("on_epoch_start")
            for x, y in batches:
                self.call("on_batch_start")
                logits = self.model(x)
                loss = F.cross_entropy(logits, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.call("on_after_backward")
                self.optimizer.step()
                self.call("on_batch_end", logits, y)
                self.global_step += 1
                print(f"step {self.global_step}  loss {loss.item():.4f}  "
                      + "  ".join(f"{k} {v:.4f}" for k, v in sorted(self.log.items())))
            self.call("on_epoch_end")


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(5)
    colors = torch.rand(N_CLASSES, 3, 1, 1, generator=g)
    batches = []
    for _ in range(STEPS):
        y = torch.randint(0, N_CLASSES, (BATCH,), generator=g)
        batches.append((colors[y] + 0.3 * torch.randn(BATCH, 3, 8, 8, generator=g), y))
    model = Net()
    ema = EMAWeights(model)
    trainer = Trainer(model, [Warmup(0.1, 4), GradNorm(), ema, EpochAccuracy(), FeatureNormTap(model.body)])
    trainer.fit(batches)
    print(f"ema checksum {sum(p.double().sum().item() for p in ema.ema.parameters()):.6f}")
