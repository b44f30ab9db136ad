"""Evaluation helpers shared by teacher and student runs."""
import torch


@torch.no_grad()
def evaluate(model, windows, labels, n_classes):
    """Accuracy and per-class recall; leaves the model in the mode it found it in."""
    was_training = model.training
    model.eval()
    pred = model(windows).argmax(1)
    recalls = []
    for c in range(n_classes):
        hit = pred[labels == c] == c
        recalls.append(hit.float().mean().item() if hit.numel() else 0.0)
    model.train(was_training)
    return (pred == labels).float().mean().item(), torch.tensor(recalls)


class AverageMeter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n):
        self.total += value * n
        self.count += n

    @property
    def avg(self):
        return self.total / max(self.count, 1)
