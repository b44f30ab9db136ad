"""Frame-by-frame streaming noise suppressor on band energies: a GRU cell summarises the
past into a context vector and a gain head predicts a per-band gain for the current
frame. The carried context is blended across frames so that it changes smoothly; the
GRU only sees a detached copy so that each frame backpropagates through itself only."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
BANDS, HID, FRAMES, BATCH, BLEND = 16, 24, 12, 8, 0.7


def make_frame(index):
    """Band energies of a slowly moving harmonic source plus a stationary noise floor."""
    centre = 4 + 3 * math.sin(index / 3)
    bands = torch.arange(BANDS).float()
    clean = torch.exp(-0.5 * (bands - centre) ** 2).expand(BATCH, BANDS) * torch.rand(BATCH, 1)
    noise = 0.2 * torch.rand(BATCH, BANDS)
    return clean + noise, clean


cell = nn.GRUCell(BANDS, HID)
gain_head = nn.Sequential(nn.Linear(HID + BANDS, 32), nn.ReLU(), nn.Linear(32, BANDS),
                          nn.Sigmoid())
optimizer = torch.optim.Adam([*cell.parameters(), *gain_head.parameters()], lr=5e-3)

context = torch.zeros(BATCH, HID)
for frame in range(FRAMES):
    noisy, clean = make_frame(frame)
    new_context = cell(noisy, context.detach())
    gains = gain_head(torch.cat([new_context, noisy], dim=1))
    loss = F.mse_loss(gains * noisy, clean)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    context = BLEND * context + (1 - BLEND) * new_context
    if frame % 4 == 3:
        print(f"frame {frame} loss {loss.item():.5f}")
