"""Keyword spotting: a small 1-D CNN over 20-band log-mel frames, pretrained on a large
command set, is adapted to four new keywords. Only the last convolutional block and the
classifier are fine-tuned; the earlier blocks stay frozen."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from finetune import count_trainable, freeze_until

N_MELS, FRAMES, N_KEYWORDS = 20, 24, 4


@dataclass
class FinetuneConfig:
    first_trainable: str = "blocks.2"
    lr: float = 0.05
    epochs: int = 3
    batch_size: int = 16


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv1d(c_in, c_out, 3, padding=1), nn.BatchNorm1d(c_out), nn.ReLU())


class KWSNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.blocks = nn.Sequential(conv_block(N_MELS, 32), conv_block(32, 32), conv_block(32, 32))
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, mels):
        return self.classifier(self.blocks(mels).mean(dim=2))


def make_clips(n):
    labels = torch.randint(0, N_KEYWORDS, (n,))
    t = torch.arange(FRAMES, dtype=torch.float32)
    bands = torch.arange(N_MELS, dtype=torch.float32)[:, None]
    # every keyword sweeps energy through the mel bands at its own speed
    centre = (labels[:, None, None] + 1) * t / 6
    mels = torch.exp(-0.5 * (bands - centre) ** 2) + 0.2 * torch.randn(n, N_MELS, FRAMES)
    return mels, labels


def main(cfg=FinetuneConfig()):
    torch.manual_seed(0)
    model = KWSNet(N_KEYWORDS)            # stands in for the pretrained checkpoint
    freeze_until(model, cfg.first_trainable)
    print(f"trainable parameters: {count_trainable(model)}")
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)
    mels, labels = make_clips(48)
    for epoch in range(cfg.epochs):
        for start in range(0, len(labels), cfg.batch_size):
            logits = model(mels[start:start + cfg.batch_size])
            loss = F.cross_entropy(logits, labels[start:start + cfg.batch_size])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
