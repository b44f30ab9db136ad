"""Tabular classifier trained with a small callback-driven Trainer: cross-entropy on the
logits plus a feature-norm penalty on the embedding; callbacks handle metrics and logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import AccuracyMeter, LossPrinter

N_FEATURES, N_CLASSES = 10, 3


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, 16))
        self.head = nn.Linear(16, N_CLASSES)

    def forward(self, x):
        emb = self.backbone(x)
        return emb, self.head(F.relu(emb))


class Trainer:
    def __init__(self, model, callbacks, lr=1e-2, feat_penalty=1e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.feat_penalty = feat_penalty
        self.log, self.epoch = {}, 0

    def _emit(self, event, *args):
        for cb in self.callbacks:
            getattr(cb, event)(self, *args)

    def training_step(self, x, y):
        emb, logits = self.model(x)
        outputs = {"embedding": emb, "logits": logits, "targets": y}
        self._emit("on_forward_end", outputs)
        loss = F.cross_entropy(outputs["logits"], y)
        loss = loss + self.feat_penalty * outputs["embedding"].pow(2).sum(1).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader, epochs):
        for self.epoch in range(epochs):
            self._emit("on_epoch_start")
            for x, y in loader:
                self.log["loss"] = self.training_step(x, y)
            self._emit("on_epoch_end")


def make_loader(gen, n_batches=3, batch=32):
    w = torch.randn(N_FEATURES, N_CLASSES, generator=gen)
    data = []
    for _ in range(n_batches):
        x = torch.randn(batch, N_FEATURES, generator=gen)
        data.append((x, (x @ w).argmax(1)))
    return data


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = make_loader(torch.Generator().manual_seed(5))
    trainer = Trainer(Classifier(), [AccuracyMeter(), LossPrinter()])
    trainer.fit(loader, epochs=3)
