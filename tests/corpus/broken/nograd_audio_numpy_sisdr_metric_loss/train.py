"""Waveform-domain speech enhancement: a small 1-D conv network predicts a soft mask that
is applied to the noisy signal. Since the project reports SI-SDR, the model is trained to
maximize it directly: the loss is the negative SI-SDR from the evaluation metrics."""
import math

import torch
import torch.nn as nn

from metrics import si_sdr

torch.manual_seed(0)
SAMPLES, BATCH = 256, 8


def make_batch():
    t = torch.arange(SAMPLES) / SAMPLES
    freq = torch.randint(3, 12, (BATCH, 1)).float()
    clean = torch.sin(2 * math.pi * freq * t) * torch.hann_window(SAMPLES)
    noisy = clean + 0.4 * torch.randn(BATCH, SAMPLES)
    return noisy, clean


class MaskNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, channels, 9, padding=4), nn.PReLU(),
            nn.Conv1d(channels, channels, 9, padding=4), nn.PReLU(),
            nn.Conv1d(channels, 1, 1), nn.Sigmoid(),
        )

    def forward(self, noisy):
        return noisy * self.net(noisy[:, None]).squeeze(1)


model = MaskNet()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(6):
    noisy, clean = make_batch()
    enhanced = model(noisy)
    loss = -torch.as_tensor(si_sdr(enhanced, clean))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} SI-SDR {-loss.item():.2f} dB")
