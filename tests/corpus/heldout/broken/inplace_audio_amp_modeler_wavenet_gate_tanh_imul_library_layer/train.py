"""Neural amp modeller: learn a guitar amplifier's distortion from paired DI / amp recordings
(synthesised here with a soft-clipping curve) using a small WaveNet."""
import torch
import torch.nn.functional as F

from layers import WaveNetStack

SAMPLE_RATE, SEGMENT, BATCH, STEPS = 8000, 256, 4, 6

torch.manual_seed(0)


def fake_amp(di, drive=4.0):
    return torch.tanh(drive * di) * 0.6 + 0.05 * torch.roll(di, 1, dims=-1)


def di_segments(n):
    t = torch.arange(SEGMENT, dtype=torch.float32) / SAMPLE_RATE
    freqs = torch.empty(n, 1).uniform_(80.0, 330.0)
    decay = torch.exp(-t * torch.empty(n, 1).uniform_(2.0, 8.0))
    return (0.5 * torch.sin(2 * torch.pi * freqs * t) * decay).unsqueeze(1)


def esr(pred, target):
    """Error-to-signal ratio, the usual amp-modelling metric."""
    return ((pred - target) ** 2).sum() / (target ** 2).sum().clamp_min(1e-8)


model = WaveNetStack()
optimizer = torch.optim.Adam(model.parameters(), lr=4e-3)
for step in range(STEPS):
    di = di_segments(BATCH)
    target = fake_amp(di)
    pred = model(di)
    loss = esr(pred, target) + 0.1 * F.l1_loss(pred, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
print("checksum", round(sum(p.abs().sum().item() for p in model.parameters()), 4))
