"""CREPE-style monophonic pitch tracker: a small 1D CNN over raw 512-sample frames predicts a
distribution over 60 pitch bins (20-cent spacing); trained with an L1 loss in cents."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SR, FRAME, N_BINS, CENTS_PER_BIN, FMIN = 8000, 512, 60, 20.0, 110.0
BIN_CENTS = torch.arange(N_BINS, dtype=torch.float32) * CENTS_PER_BIN


def hz_to_cents(f0):
    return 1200.0 * torch.log2(f0 / FMIN)


def synth_frames(batch):
    cents = torch.rand(batch) * BIN_CENTS[-1]
    f0 = FMIN * 2 ** (cents / 1200.0)
    t = torch.arange(FRAME, dtype=torch.float32) / SR
    phase = 2 * torch.pi * f0[:, None] * t
    audio = torch.sin(phase) + 0.5 * torch.sin(2 * phase) + 0.05 * torch.randn(batch, FRAME)
    return audio.unsqueeze(1), f0


torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv1d(1, 16, kernel_size=64, stride=4), nn.ReLU(), nn.BatchNorm1d(16),
    nn.Conv1d(16, 16, kernel_size=16, stride=4), nn.ReLU(), nn.AdaptiveAvgPool1d(8),
    nn.Flatten(), nn.Linear(16 * 8, N_BINS),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(6):
    audio, f0 = synth_frames(batch=16)
    logits = model(audio)
    pred_cents = (logits.softmax(dim=-1) * BIN_CENTS).sum(dim=-1)
    loss = F.l1_loss(pred_cents, hz_to_cents(f0))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} cents mae {loss.item():.2f}")
