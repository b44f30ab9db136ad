"""Keyword spotting ("yes" / "no" / "up" / "down" / silence) on synthetic log-mel frames with
a small 1-D CNN, using the team's engine for the optimisation step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import log_every, optimization_step

N_MELS, FRAMES, N_KEYWORDS, BATCH = 16, 20, 5, 16


class KeywordCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 24, 5, padding=2), nn.BatchNorm1d(24), nn.ReLU(),
            nn.Conv1d(24, 24, 3, padding=1, groups=24), nn.Conv1d(24, 32, 1), nn.ReLU())
        self.classifier = nn.Linear(32, N_KEYWORDS)

    def forward(self, mels):
        return self.classifier(self.conv(mels).mean(-1))


def synth_batch(templates):
    labels = torch.randint(0, N_KEYWORDS, (BATCH,))
    shift = torch.randint(0, 4, (1,)).item()
    mels = torch.roll(templates[labels], shift, dims=-1) + 0.5 * torch.randn(BATCH, N_MELS, FRAMES)
    return mels, labels


def main(steps=6):
    torch.manual_seed(0)
    templates = torch.randn(N_KEYWORDS, N_MELS, FRAMES)
    model = KeywordCNN()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
    for step in range(steps):
        mels, labels = synth_batch(templates)
        with optimization_step(optimizer, model.parameters(), max_norm=2.0) as opt_step:
            logits = model(mels)
            loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
            loss.backward()
            finite = all(torch.isfinite(p.grad).all() for p in model.parameters())
            if not finite:
                raise FloatingPointError(f"non-finite gradient at step {step}")
            opt_step.loss = loss
        acc = (logits.argmax(-1) == labels).float().mean().item()
        log_every(step, 1, loss=loss.item(), acc=acc, grad_norm=opt_step.grad_norm)
    return model


if __name__ == "__main__":
    main()
