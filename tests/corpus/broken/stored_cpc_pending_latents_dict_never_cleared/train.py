"""Feeds a synthetic multichannel sensor stream (batch of 6 devices) to StreamingCPC."""
import torch

from cpc import StreamingCPC

torch.manual_seed(0)
N_DEVICES, N_CHANNELS, N_FRAMES = 6, 5, 12

phase = torch.rand(N_DEVICES, 1) * 6.28
freqs = torch.linspace(0.3, 1.2, N_CHANNELS)
learner = StreamingCPC(in_dim=N_CHANNELS)
for t in range(N_FRAMES):
    frame = torch.sin(freqs * t + phase) + 0.1 * torch.randn(N_DEVICES, N_CHANNELS)
    loss = learner.observe(t, frame)
    if loss is not None:
        print(f"frame {t}: InfoNCE {loss:.4f} (pending {len(learner.pending)})")
