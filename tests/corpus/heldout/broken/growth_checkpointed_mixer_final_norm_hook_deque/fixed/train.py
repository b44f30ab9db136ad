"""Deep MLP-Mixer over multichannel sensor patches, trained with activation checkpointing
(torch.utils.checkpoint, non-reentrant) on every mixer block to fit longer recordings.
A forward hook on the final LayerNorm keeps the feature norms of recent batches to watch for
representation collapse."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
PATCHES, CHANNELS, DIM, DEPTH, N_CLASSES, BATCH = 8, 6, 32, 4, 5, 16


class MixerBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.token_mlp = nn.Sequential(nn.Linear(PATCHES, 16), nn.GELU(), nn.Linear(16, PATCHES))
        self.channel_mlp = nn.Sequential(nn.Linear(DIM, 64), nn.GELU(), nn.Linear(64, DIM))

    def forward(self, x):
        x = x + self.token_mlp(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channel_mlp(self.norm2(x))


class SensorMixer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(CHANNELS, DIM)
        self.blocks = nn.ModuleList(MixerBlock() for _ in range(DEPTH))
        self.final_norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, N_CLASSES)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=False)
        return self.head(self.final_norm(x).mean(dim=1))


model = SensorMixer()
recent_norms = deque(maxlen=50)


def watch_collapse(module, inputs, output):
    recent_norms.append(output.detach().norm(dim=-1).mean())


model.final_norm.register_forward_hook(watch_collapse)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
prototypes = torch.randn(N_CLASSES, PATCHES, CHANNELS)

for step in range(10):
    labels = torch.randint(0, N_CLASSES, (BATCH,))
    x = prototypes[labels] + 0.5 * torch.randn(BATCH, PATCHES, CHANNELS)
    loss = F.cross_entropy(model(x), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    spread = torch.stack(list(recent_norms)).std() if len(recent_norms) > 1 else torch.tensor(0.0)
    print(f"step {step}  loss {loss.item():.4f}  feature-norm spread {spread.item():.4f}")
