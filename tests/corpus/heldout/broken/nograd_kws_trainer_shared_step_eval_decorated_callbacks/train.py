"""Keyword spotting on synthetic log-mel frames with a small Trainer class and callbacks.
The batch scoring method is shared by training and validation so both report the same
loss and accuracy."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, KEYWORDS = 20, 16, 4


def synth_keywords(n, generator):
    labels = torch.randint(0, KEYWORDS, (n,), generator=generator)
    base = torch.randn(KEYWORDS, N_MELS, FRAMES, generator=generator)
    feats = base[labels] + 0.5 * torch.randn(n, N_MELS, FRAMES, generator=generator)
    return feats, labels


class KeywordNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(N_MELS, 32, kernel_size=3, padding=1)
        self.norm = nn.BatchNorm1d(32)
        self.classifier = nn.Linear(32, KEYWORDS)

    def forward(self, x):
        h = F.relu(self.norm(self.conv(x)))
        return self.classifier(h.mean(dim=-1))


class PrintLoss:
    def on_batch_end(self, trainer, step, loss, acc):
        print(f"epoch {trainer.epoch} step {step} loss {loss:.4f} acc {acc:.3f}")


class TrackBest:
    def __init__(self):
        self.best = float("inf")

    def on_epoch_end(self, trainer, val_loss):
        self.best = min(self.best, val_loss)
        print(f"epoch {trainer.epoch} val {val_loss:.4f} best {self.best:.4f}")


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = callbacks
        self.epoch = 0

    def _emit(self, event, *args):
        for cb in self.callbacks:
            hook = getattr(cb, event, None)
            if hook is not None:
                hook(self, *args)

    @torch.no_grad()
    def score_batch(self, feats, labels):
        logits = self.model(feats)
        loss = F.cross_entropy(logits, labels)
        acc = (logits.argmax(-1) == labels).float().mean()
        return loss, acc

    def training_step(self, step, feats, labels):
        self.model.train()
        loss, acc = self.score_batch(feats, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self._emit("on_batch_end", step, loss.item(), acc.item())

    def validate(self, feats, labels):
        self.model.eval()
        loss, _ = self.score_batch(feats, labels)
        return loss.item()

    def fit(self, train, val, epochs, batch_size=16):
        feats, labels = train
        for self.epoch in range(epochs):
            for step, start in enumerate(range(0, len(feats), batch_size)):
                self.training_step(step, feats[start:start + batch_size],
                                   labels[start:start + batch_size])
            self._emit("on_epoch_end", self.validate(*val))


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    train, val = synth_keywords(48, gen), synth_keywords(16, gen)
    model = KeywordNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    Trainer(model, optimizer, [PrintLoss(), TrackBest()]).fit(train, val, epochs=2)


if __name__ == "__main__":
    main()
