"""Speech enhancement: a small 1-D conv mask network trained to maximise SI-SDR between the
enhanced and the clean waveform. The SI-SDR is computed per utterance, as in the evaluation
script, and averaged into the batch loss."""
import torch
import torch.nn as nn

torch.manual_seed(0)
SAMPLES, BATCH = 256, 8


def si_sdr(estimate, reference, eps=1e-8):
    estimate = estimate - estimate.mean()
    reference = reference - reference.mean()
    scale = (estimate * reference).sum() / (reference.pow(2).sum() + eps)
    target = scale * reference
    noise = estimate - target
    return 10 * torch.log10(target.pow(2).sum() / (noise.pow(2).sum() + eps) + eps)


class MaskNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, channels, 9, padding=4), nn.PReLU(),
            nn.Conv1d(channels, channels, 9, padding=4, dilation=1), nn.PReLU(),
            nn.Conv1d(channels, 1, 1), nn.Sigmoid(),
        )

    def forward(self, noisy):
        return noisy * self.net(noisy.unsqueeze(1)).squeeze(1)


def make_batch(n):
    t = torch.arange(SAMPLES) / 8000
    f0 = torch.randint(150, 400, (n, 1)).float()
    clean = torch.sin(2 * torch.pi * f0 * t) * torch.hann_window(SAMPLES)
    noisy = clean + 0.3 * torch.randn(n, SAMPLES)
    return noisy, clean


model = MaskNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(5):
    noisy, clean = make_batch(BATCH)
    enhanced = model(noisy)
    loss = -torch.stack([si_sdr(e, c) for e, c in zip(enhanced, clean)]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} SI-SDR {-loss.item():.3f} dB")
