"""Click-through-rate model (field embeddings + MLP) trained by a small Trainer with
callbacks. A calibration callback tracks, since the start of training, the ratio of the
predicted click rate to the observed one."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
FIELDS, CARDINALITY, EMB = 4, 20, 8


class CTRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(CARDINALITY, EMB) for _ in range(FIELDS))
        self.mlp = nn.Sequential(nn.Linear(FIELDS * EMB, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        emb = torch.cat([table(x[:, i]) for i, table in enumerate(self.embeddings)], dim=1)
        return self.mlp(emb).squeeze(1)


class Callback:
    def on_batch_end(self, trainer, out):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class CalibrationMeter(Callback):
    def __init__(self):
        self.sums = {"predicted": 0.0, "clicked": 0.0, "seen": 0}

    def on_batch_end(self, trainer, out):
        self.sums["predicted"] = self.sums["predicted"] + out["probs"].sum().item()
        self.sums["clicked"] = self.sums["clicked"] + out["labels"].sum().item()
        self.sums["seen"] += len(out["labels"])

    def on_epoch_end(self, trainer, epoch):
        ratio = self.sums["predicted"] / max(self.sums["clicked"], 1.0)
        print(f"epoch {epoch} calibration (pred/obs) {ratio:.3f} over {self.sums['seen']} rows")


class Trainer:
    def __init__(self, model, callbacks, lr=1e-2):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adagrad(model.parameters(), lr=lr)

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for x, y in batches:
                logits = self.model(x)
                loss = F.binary_cross_entropy_with_logits(logits, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                out = {"loss": loss.item(), "probs": torch.sigmoid(logits), "labels": y}
                for cb in self.callbacks:
                    cb.on_batch_end(self, out)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def impressions(n_batches=4, size=32):
    batches = []
    for _ in range(n_batches):
        x = torch.randint(0, CARDINALITY, (size, FIELDS))
        y = ((x[:, 0] % 4 == 0) | (x[:, 2] < 3)).float()
        batches.append((x, y))
    return batches


meter = CalibrationMeter()
trainer = Trainer(CTRModel(), [meter])
trainer.fit(impressions(), epochs=2)
print(f"observed click rate {meter.sums['clicked'] / meter.sums['seen']:.3f}")
