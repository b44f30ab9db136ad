"""Trains the trajectory predictor on synthetic pedestrians walking with constant velocity
plus a slow turn; the encoder's latent states are kept smooth by a hook regulariser."""
import math

import torch

from model import HORIZON, TrajectoryPredictor
from regularisers import LatentSmoothness

torch.manual_seed(0)
OBS = 8


def make_tracks(n):
    speed = 0.3 + 0.2 * torch.rand(n, 1)
    heading = 2 * math.pi * torch.rand(n, 1)
    turn = 0.1 * torch.randn(n, 1)
    angles = heading + turn * torch.arange(OBS + HORIZON)
    steps = speed[..., None] * torch.stack([angles.cos(), angles.sin()], dim=-1)
    steps = steps + 0.02 * torch.randn_like(steps)
    return steps[:, :OBS], steps[:, OBS:]


def ade(pred_steps, true_steps):
    """Average displacement error over the predicted positions."""
    return (pred_steps.cumsum(1) - true_steps.cumsum(1)).norm(dim=-1).mean()


past, future = make_tracks(96)
val_past, val_future = make_tracks(32)
model = TrajectoryPredictor()
smooth = LatentSmoothness(model.encoder)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(2):
    model.train()
    for start in range(0, 96, 32):
        optimizer.zero_grad()
        pred = model(past[start:start + 32])
        loss = ade(pred, future[start:start + 32])
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        val = ade(model(val_past), val_future).item()
    print(f"epoch {epoch} ade {loss.item():.4f} smooth {smooth.last:.5f} val ade {val:.4f}")
