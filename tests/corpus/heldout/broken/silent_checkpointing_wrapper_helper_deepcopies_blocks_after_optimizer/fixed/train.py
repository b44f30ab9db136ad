"""ConvNeXt-style image classifier on synthetic orientation patterns, trained with
activation checkpointing on its blocks to fit larger batches."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from ckpt_utils import apply_activation_checkpointing, count_wrapped

N_CLASSES, IMG = 4, 16


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, 5, padding=2, groups=dim)
        self.norm = nn.GroupNorm(1, dim)
        self.pw1 = nn.Conv2d(dim, 4 * dim, 1)
        self.pw2 = nn.Conv2d(4 * dim, dim, 1)

    def forward(self, x):
        return x + self.pw2(F.gelu(self.pw1(self.norm(self.dwconv(x)))))


class TinyConvNeXt(nn.Module):
    def __init__(self, dim=16, depth=3):
        super().__init__()
        self.stem = nn.Conv2d(1, dim, 4, stride=4)
        self.blocks = nn.ModuleList(ConvNeXtBlock(dim) for _ in range(depth))
        self.head = nn.Linear(dim, N_CLASSES)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=(2, 3)))


def gratings(n, gen):
    labels = torch.randint(0, N_CLASSES, (n,), generator=gen)
    angles = labels.float() * torch.pi / N_CLASSES
    ys, xs = torch.meshgrid(torch.arange(IMG).float(), torch.arange(IMG).float(), indexing="ij")
    phase = xs * torch.cos(angles)[:, None, None] + ys * torch.sin(angles)[:, None, None]
    return torch.sin(1.3 * phase)[:, None] + 0.3 * torch.randn(n, 1, IMG, IMG, generator=gen), labels


def main(args):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    model = TinyConvNeXt()
    if args.checkpointing:
        model = apply_activation_checkpointing(model)
        print(f"activation checkpointing on {count_wrapped(model)} blocks")
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    model.train()
    for step in range(args.steps):
        images, labels = gratings(args.batch, gen)
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"step {step}  loss {loss.item():.4f}  acc {acc:.2f}")
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--checkpointing", action="store_true")
    main(parser.parse_args())
