"""Denoising diffusion on a 2-D 'two rings' point cloud. The batch size that trains well
(128) did not fit the original GPU, so gradient accumulation over ACCUM_STEPS micro-steps
was added around the backward call, with one optimizer step per batch."""
import math

import torch

from ddpm import LinearSchedule, PointDenoiser, diffusion_loss

torch.manual_seed(0)
ACCUM_STEPS = 4
BATCH = 128


def two_rings(n):
    theta = torch.rand(n) * 2 * math.pi
    radius = torch.where(torch.rand(n) < 0.5, torch.tensor(1.0), torch.tensor(2.0))
    pts = torch.stack([theta.cos(), theta.sin()], dim=1) * radius.unsqueeze(1)
    return pts + 0.05 * torch.randn(n, 2)


def train(epochs=2):
    model = PointDenoiser()
    schedule = LinearSchedule()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    data = two_rings(512)
    for epoch in range(epochs):
        perm = torch.randperm(data.size(0))
        for step, idx in enumerate(perm.split(BATCH)):
            batch = data[idx]
            optimizer.zero_grad()
            loss = diffusion_loss(model, schedule, batch)
            for micro_step in range(ACCUM_STEPS):
                (loss / ACCUM_STEPS).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    return model


train()
