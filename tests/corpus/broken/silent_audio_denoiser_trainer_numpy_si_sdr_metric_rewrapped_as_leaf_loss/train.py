"""Waveform speech denoiser (small 1-D conv net) trained to maximise SI-SDR, the metric
the team reports, on synthetic voiced frames mixed with babble-like noise."""
import torch
import torch.nn as nn

from metrics import si_sdr

SAMPLES, BATCH = 256, 16


class Denoiser(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, ch, 9, padding=4), nn.PReLU(),
            nn.Conv1d(ch, ch, 9, padding=4, dilation=1), nn.PReLU(),
            nn.Conv1d(ch, 1, 9, padding=4),
        )

    def forward(self, noisy):
        return noisy - self.net(noisy)


def voiced_frames(gen):
    t = torch.arange(SAMPLES) / 8000.0
    f0 = 100 + 150 * torch.rand(BATCH, 1, generator=gen)
    clean = sum(torch.sin(2 * torch.pi * k * f0 * t) / k for k in range(1, 4))
    noise = 0.5 * torch.randn(BATCH, SAMPLES, generator=gen)
    return (clean + noise).unsqueeze(1), clean.unsqueeze(1)


class Trainer:
    def __init__(self, lr=2e-3):
        self.enhancer = Denoiser()
        self.optimizer = torch.optim.Adam(self.enhancer.parameters(), lr=lr)
        self.gen = torch.Generator().manual_seed(0)

    def train_step(self):
        noisy, clean = voiced_frames(self.gen)
        estimate = self.enhancer(noisy)
        scores = si_sdr(estimate.squeeze(1).detach().numpy(), clean.squeeze(1).numpy())
        loss = torch.tensor(-scores.mean(), requires_grad=True)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return -loss.item()

    def fit(self, steps):
        for step in range(steps):
            print(f"step {step} train SI-SDR {self.train_step():.3f} dB")


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer().fit(6)
