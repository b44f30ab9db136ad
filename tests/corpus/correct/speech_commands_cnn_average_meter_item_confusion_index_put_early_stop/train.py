"""Spoken-command classifier on log-mel patches with the usual training-loop bookkeeping:
an AverageMeter for the loss fed with loss.item(), a confusion matrix filled from argmax
predictions, and early stopping on the epoch's mean loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

COMMANDS = ["yes", "no", "up", "down", "stop"]
N_MELS, FRAMES, BATCH = 16, 24, 10


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class ConfusionMeter:
    def __init__(self, n):
        self.matrix = torch.zeros(n, n, dtype=torch.long)

    def update(self, logits, target):
        pred = logits.argmax(dim=1)
        self.matrix.index_put_((target, pred), torch.ones_like(target), accumulate=True)

    def per_class_recall(self):
        return (self.matrix.diag().float() / self.matrix.sum(dim=1).clamp(min=1)).tolist()


class CommandNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                  nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(16, len(COMMANDS))

    def forward(self, mels):
        return self.fc(self.conv(mels.unsqueeze(1)).mean(dim=(2, 3)))


def command_batches(gen, n):
    templates = torch.randn(len(COMMANDS), N_MELS, FRAMES, generator=gen)
    out = []
    for _ in range(n):
        y = torch.randint(0, len(COMMANDS), (BATCH,), generator=gen)
        out.append((templates[y] + 0.8 * torch.randn(BATCH, N_MELS, FRAMES, generator=gen), y))
    return out


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    batches = command_batches(gen, 3)
    model = CommandNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    best, bad_epochs, patience = float("inf"), 0, 2
    for epoch in range(3):
        loss_meter, confusion = AverageMeter(), ConfusionMeter(len(COMMANDS))
        model.train()
        for mels, y in batches:
            logits = model(mels)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_meter.update(loss.item(), mels.size(0))
            confusion.update(logits, y)
        recall = " ".join(f"{c}={r:.2f}" for c, r in zip(COMMANDS, confusion.per_class_recall()))
        print(f"epoch {epoch} loss {loss_meter.avg:.4f} recall {recall}")
        if loss_meter.avg < best - 1e-3:
            best, bad_epochs = loss_meter.avg, 0
        else:
            bad_epochs += 1
            if bad_epochs >= patience:
                print("early stop")
                break
    print(f"best {best:.4f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
