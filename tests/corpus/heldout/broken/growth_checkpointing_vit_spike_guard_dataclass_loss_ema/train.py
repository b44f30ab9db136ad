"""Tiny ViT on synthetic 4-class images, with activation checkpointing on every encoder
block and a loss-spike guard: a step whose loss jumps far above the running loss average
is skipped instead of applied (the trick large-model recipes use against bad batches)."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

IMG, PATCH, DIM, DEPTH, N_CLASSES, BATCH, STEPS = 16, 4, 32, 3, 4, 16, 10


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.attn = nn.MultiheadAttention(DIM, num_heads=4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(DIM, 2 * DIM), nn.GELU(), nn.Linear(2 * DIM, DIM))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class TinyViT(nn.Module):
    def __init__(self):
        super().__init__()
        n_patches = (IMG // PATCH) ** 2
        self.patch_embed = nn.Conv2d(3, DIM, PATCH, stride=PATCH)
        self.pos = nn.Parameter(torch.zeros(1, n_patches, DIM))
        self.blocks = nn.ModuleList(Block() for _ in range(DEPTH))
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, N_CLASSES)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2) + self.pos
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=False)
        return self.head(self.norm(x).mean(dim=1))


@dataclass
class TrainState:
    step: int = 0
    skipped: int = 0
    loss_ema: torch.Tensor = field(default_factory=lambda: torch.tensor(0.0))
    ema_decay: float = 0.9


def batch(gen):
    y = torch.randint(0, N_CLASSES, (BATCH,), generator=gen)
    quadrant = torch.zeros(BATCH, 3, IMG, IMG)
    for i, label in enumerate(y.tolist()):
        r, c = divmod(label, 2)
        quadrant[i, :, r * 8:(r + 1) * 8, c * 8:(c + 1) * 8] = 1.0
    return quadrant + 0.5 * torch.randn(BATCH, 3, IMG, IMG, generator=gen), y


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    model = TinyViT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    state = TrainState()
    for _ in range(STEPS):
        images, labels = batch(gen)
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        spike = state.step > 3 and loss.item() > 2.0 * state.loss_ema.item()
        if spike:
            state.skipped += 1
        else:
            optimizer.step()
        first = state.step == 0
        state.loss_ema = loss if first else state.ema_decay * state.loss_ema + (1 - state.ema_decay) * loss
        state.step += 1
        print(f"step {state.step}  loss {loss.item():.4f}  ema {state.loss_ema.item():.4f}  "
              f"{'SKIPPED' if spike else ''}")
    return state


if __name__ == "__main__":
    final = main()
    print(f"done: {final.step} steps, {final.skipped} skipped")
