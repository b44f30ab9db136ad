"""Class-conditional denoiser for 1-D motion snippets. The prompt encoder (a deep MLP over the
class token) and every denoiser block run under activation checkpointing to save memory.
Prompt embeddings are cached per class, since the prompts repeat from batch to batch.
Batches are drawn one class at a time (class-balanced sampler)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
N_CLASSES, LENGTH, DIM, T_STEPS, BATCH = 3, 16, 32, 20, 16
betas = torch.linspace(1e-3, 0.1, T_STEPS)
alpha_bar = torch.cumprod(1 - betas, 0)


class ResBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, 2 * DIM), nn.SiLU(),
                                 nn.Linear(2 * DIM, DIM))

    def forward(self, h):
        return h + self.net(h)


class ConditionalDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.class_tokens = nn.Embedding(N_CLASSES, DIM)
        self.prompt_encoder = nn.Sequential(ResBlock(), ResBlock())
        self.time_embed = nn.Embedding(T_STEPS, DIM)
        self.inp = nn.Linear(LENGTH, DIM)
        self.blocks = nn.ModuleList(ResBlock() for _ in range(3))
        self.out = nn.Linear(DIM, LENGTH)
        self.prompt_cache = {}

    def prompt(self, label):
        key = int(label)
        if self.training:
            token = self.class_tokens(torch.tensor([key]))
            return checkpoint(self.prompt_encoder, token, use_reentrant=False)
        if key not in self.prompt_cache:
            token = self.class_tokens(torch.tensor([key]))
            self.prompt_cache[key] = self.prompt_encoder(token)
        return self.prompt_cache[key]

    def forward(self, x_t, t, label):
        h = self.inp(x_t) + self.time_embed(t) + self.prompt(label)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return self.out(h)


def motion_batch(label):
    phase = torch.rand(BATCH, 1) * 6.28
    grid = torch.linspace(0, 6.28, LENGTH)
    return torch.sin((label + 1) * grid + phase) + 0.05 * torch.randn(BATCH, LENGTH)


model = ConditionalDenoiser()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(6):
    label = step % N_CLASSES
    x0 = motion_batch(label)
    t = torch.randint(0, T_STEPS, (BATCH,))
    noise = torch.randn_like(x0)
    ab = alpha_bar[t][:, None]
    loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t, label), noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}  class {label}  loss {loss.item():.4f}")
