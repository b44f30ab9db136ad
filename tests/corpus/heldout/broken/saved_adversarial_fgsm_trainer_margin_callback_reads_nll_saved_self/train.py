"""Fast FGSM adversarial training (random start + one signed-gradient step)
for a small sensor-signal classifier, with a callback system for logging.
RobustMarginLogger records how confidently the adversarial batch is still
classified, reusing the log-probabilities that cross_entropy already saved."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEAT, N_CLASSES, EPS = 24, 4, 0.15


class RobustMarginLogger:
    def __init__(self):
        self.history = []

    def on_after_backward(self, trainer, loss):
        log_probs = loss.grad_fn._saved_self
        self.history.append(log_probs.exp().max(1).values.mean().item())


class PrintLogger:
    def on_after_backward(self, trainer, loss):
        print(f"step {trainer.global_step} adv-loss {loss.item():.4f}")


class FGSMTrainer:
    def __init__(self, model, callbacks=()):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=2e-3)
        self.callbacks = list(callbacks)
        self.global_step = 0

    def fgsm(self, x, y):
        delta = torch.empty_like(x).uniform_(-EPS, EPS).requires_grad_(True)
        loss = F.cross_entropy(self.model(x + delta), y)
        grad, = torch.autograd.grad(loss, delta)
        return (x + (delta + 1.25 * EPS * grad.sign()).clamp(-EPS, EPS)).detach()

    def training_step(self, x, y):
        x_adv = self.fgsm(x, y)
        loss = F.cross_entropy(self.model(x_adv), y)
        self.opt.zero_grad()
        loss.backward()
        for cb in self.callbacks:
            cb.on_after_backward(self, loss)
        self.opt.step()
        self.global_step += 1

    def fit(self, batches, epochs=2):
        for _ in range(epochs):
            for x, y in batches:
                self.training_step(x, y)


def sensor_batches(n, batch=32, seed=9):
    g = torch.Generator().manual_seed(seed)
    proto = torch.randn(N_CLASSES, N_FEAT, generator=g)
    out = []
    for _ in range(n):
        y = torch.randint(0, N_CLASSES, (batch,), generator=g)
        out.append((proto[y] + 0.5 * torch.randn(batch, N_FEAT, generator=g), y))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(N_FEAT, 48), nn.ReLU(), nn.Linear(48, N_CLASSES))
    margin = RobustMarginLogger()
    FGSMTrainer(net, callbacks=[PrintLogger(), margin]).fit(sensor_batches(3))
    print("mean adversarial confidence", [round(m, 3) for m in margin.history])
