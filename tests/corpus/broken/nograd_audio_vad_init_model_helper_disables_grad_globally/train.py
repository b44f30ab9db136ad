"""Fine-tune a small frame-level voice activity detector (conv + GRU over log energy and
zero-crossing features) on a new microphone. The network is brought up with init_model()
from vad_utils, the same helper the streaming demo uses to load the checkpoint."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from vad_utils import frame_labels, init_model, log_energy_frames

SAMPLES = 1024


class FrameVAD(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.conv = nn.Conv1d(2, hidden, kernel_size=3, padding=1)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, feats):                     # feats: (batch, frames, 2)
        h = torch.relu(self.conv(feats.transpose(1, 2))).transpose(1, 2)
        h, _ = self.gru(h)
        return self.out(h).squeeze(-1)            # (batch, frames) speech logits


def noisy_utterances(n, gen):
    t = torch.arange(SAMPLES) / 8000.0
    start = torch.randint(100, 500, (n, 1), generator=gen)
    length = torch.randint(200, 450, (n, 1), generator=gen)
    idx = torch.arange(SAMPLES)[None, :]
    mask = ((idx >= start) & (idx < start + length)).float()
    pitch = 120 + 80 * torch.rand(n, 1, generator=gen)
    voiced = torch.sin(2 * math.pi * pitch * t) + 0.5 * torch.sin(2 * math.pi * 3 * pitch * t)
    wave = mask * voiced + 0.05 * torch.randn(n, SAMPLES, generator=gen)
    return wave, mask


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    checkpoint = FrameVAD().state_dict()          # stands in for the released checkpoint
    model = init_model(FrameVAD(), checkpoint)
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    batches = [noisy_utterances(8, gen) for _ in range(3)]
    for epoch in range(2):
        for wave, mask in batches:
            feats = log_energy_frames(wave)
            target = frame_labels(mask)
            logits = model(feats)
            loss = F.binary_cross_entropy_with_logits(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = ((logits > 0).float() == target).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} frame acc {acc:.3f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
