"""Patch-based transformer forecaster for hourly electricity load (PatchTST-like, tiny)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import Block, RMSNorm

CONTEXT, PATCH, HORIZON, DIM = 48, 8, 12, 16


class PatchForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.n_patches = CONTEXT // PATCH
        self.embed = nn.Linear(PATCH, DIM)
        self.pos = nn.Parameter(torch.zeros(1, self.n_patches, DIM))
        self.blocks = nn.ModuleList([Block(DIM, 2) for _ in range(2)])
        self.norm = RMSNorm(DIM)
        self.head = nn.Linear(self.n_patches * DIM, HORIZON)

    def forward(self, series):
        mu = series.mean(dim=1, keepdim=True)
        sd = series.std(dim=1, keepdim=True) + 1e-5
        z = (series - mu) / sd
        h = self.embed(z.unfold(1, PATCH, PATCH)) + self.pos
        for block in self.blocks:
            h = block(h)
        return self.head(self.norm(h).flatten(1)) * sd + mu


def load_windows(batch, gen):
    t = torch.arange(CONTEXT + HORIZON).float()
    phase = torch.rand(batch, 1, generator=gen) * 24
    daily = torch.sin(2 * torch.pi * (t + phase) / 24)
    level = 5 + torch.rand(batch, 1, generator=gen)
    y = level + daily + 0.1 * torch.randn(batch, CONTEXT + HORIZON, generator=gen)
    return y[:, :CONTEXT], y[:, CONTEXT:]


def train(epochs=2, batches=3):
    gen = torch.Generator().manual_seed(8)
    model = PatchForecaster()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        for b in range(batches):
            ctx, target = load_windows(16, gen)
            loss = F.l1_loss(model(ctx), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} batch {b}: mae={loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(8)
    train()
