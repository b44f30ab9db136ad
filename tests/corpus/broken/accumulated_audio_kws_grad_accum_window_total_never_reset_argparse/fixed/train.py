"""Keyword spotting on MFCC-like frames with gradient accumulation (small device, tiny batches)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MFCC, FRAMES, KEYWORDS = 10, 12, 4


def fake_mfcc(n, g):
    labels = torch.randint(0, KEYWORDS, (n,), generator=g)
    t = torch.arange(FRAMES, dtype=torch.float32)
    band = torch.arange(N_MFCC, dtype=torch.float32)
    tone = torch.sin(0.4 * (labels[:, None, None] + 1) * t[None, :, None] + 0.3 * band[None, None, :])
    return tone + 0.3 * torch.randn(n, FRAMES, N_MFCC, generator=g), labels


class KWSNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame = nn.Linear(N_MFCC, 16)
        self.classify = nn.Linear(16, KEYWORDS)

    def forward(self, x):
        h = F.gelu(self.frame(x)).mean(dim=1)
        return self.classify(h)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--micro-batch", type=int, default=4)
    p.add_argument("--accum", type=int, default=2)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--lr", type=float, default=0.01)
    args = p.parse_args()

    torch.manual_seed(0)
    g = torch.Generator().manual_seed(4)
    model = KWSNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    x, y = fake_mfcc(args.micro_batch * args.steps, g)

    window = 0.0
    for step in range(args.steps):
        sl = slice(step * args.micro_batch, (step + 1) * args.micro_batch)
        loss = F.cross_entropy(model(x[sl]), y[sl])
        (loss / args.accum).backward()
        window = window + loss.item() / args.accum
        if (step + 1) % args.accum == 0:
            optimizer.step()
            optimizer.zero_grad()
            print(f"update {(step + 1) // args.accum} loss {window:.4f}")
            window = 0.0


if __name__ == "__main__":
    main()
