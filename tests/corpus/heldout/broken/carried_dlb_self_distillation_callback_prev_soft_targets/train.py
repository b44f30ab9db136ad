"""Self-distillation from the last mini-batch (DLB, Shen et al. 2022) for a tabular
classifier. Each batch is half fresh samples and half the fresh samples of the previous
batch; a callback keeps the previous predictions for the repeated half as soft targets."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, N_CLASSES, HALF, TEMP, KD_WEIGHT = 12, 4, 8, 3.0, 1.0


class Callback:
    def extra_loss(self, trainer, logits):
        return logits.new_zeros(())

    def on_step_end(self, trainer, logits):
        pass


class LastBatchDistillation(Callback):
    def __init__(self):
        self.prev_soft = None

    def extra_loss(self, trainer, logits):
        if self.prev_soft is None:
            return logits.new_zeros(())
        log_p = F.log_softmax(logits[:HALF] / TEMP, dim=1)
        return F.kl_div(log_p, self.prev_soft, reduction="batchmean") * TEMP ** 2

    def on_step_end(self, trainer, logits):
        self.prev_soft = F.softmax(logits[HALF:] / TEMP, dim=1)


class LossLogger(Callback):
    def on_step_end(self, trainer, logits):
        print(f"step {trainer.step} loss {trainer.last_loss:.4f}")


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        self.step, self.last_loss = 0, float("nan")

    def training_step(self, x, y):
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        loss = loss + KD_WEIGHT * sum(cb.extra_loss(self, logits) for cb in self.callbacks)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.last_loss = loss.item()
        for cb in self.callbacks:
            cb.on_step_end(self, logits)
        self.step += 1

    def fit(self, x, y):
        prev_x, prev_y = x[:HALF], y[:HALF]
        for start in range(HALF, x.size(0), HALF):
            new_x, new_y = x[start:start + HALF], y[start:start + HALF]
            self.training_step(torch.cat([prev_x, new_x]), torch.cat([prev_y, new_y]))
            prev_x, prev_y = new_x, new_y


torch.manual_seed(0)
features = torch.randn(48, N_FEATURES)
labels = (features[:, :4].argmax(dim=1) + (features[:, 4] > 1).long()) % N_CLASSES
model = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
Trainer(model, [LastBatchDistillation(), LossLogger()]).fit(features, labels)
