"""Speech enhancement: a small mask estimator predicts a [0, 1] gain for every bin of a
noisy magnitude spectrogram. The progress line shows a smoothed loss that a closure built
by make_smoother() keeps between calls."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FREQ, FRAMES, BATCH = 32, 10, 8


class MaskEstimator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FREQ, 48), nn.ReLU(), nn.Linear(48, N_FREQ))

    def forward(self, noisy_mag):
        return torch.sigmoid(self.net(torch.log1p(noisy_mag)))


def make_smoother(beta=0.9):
    smoothed = None

    def update(value):
        nonlocal smoothed
        smoothed = value if smoothed is None else beta * smoothed + (1 - beta) * value
        return smoothed

    return update


def synth_batch():
    clean = torch.rand(BATCH, FRAMES, N_FREQ) ** 2
    noise = 0.3 * torch.rand(BATCH, FRAMES, N_FREQ)
    return clean + noise, clean


model = MaskEstimator()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
smooth = make_smoother()
for step in range(8):
    noisy, clean = synth_batch()
    enhanced = model(noisy) * noisy
    loss = F.l1_loss(enhanced, clean)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    shown = smooth(loss)
    print(f"step {step} loss {loss.item():.4f} smoothed {shown:.4f}")
