import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CLASSES = ("normal", "af", "pvc", "noise")


def synth_ecg(gen, batch=8, length=128):
    """Beat trains whose rate and irregularity depend on the rhythm class."""
    labels = torch.randint(0, len(CLASSES), (batch,), generator=gen)
    t = torch.arange(length).float()
    rate = 0.08 + 0.04 * labels.float().unsqueeze(1)
    jitter = 0.3 * (labels == 1).float().unsqueeze(1) * torch.randn(batch, 1, generator=gen)
    beats = torch.cos(2 * math.pi * rate * t + jitter).clamp(min=0) ** 8
    noise = 0.05 * torch.randn(batch, length, generator=gen) * (1 + 4 * (labels == 3).float().unsqueeze(1))
    return (beats + noise).unsqueeze(1), labels


model = nn.Sequential(
    nn.Conv1d(1, 8, 7, padding=3),
    nn.ReLU(),
    nn.MaxPool1d(2),
    nn.Conv1d(8, 16, 5, padding=2),
    nn.ReLU(),
    nn.AdaptiveAvgPool1d(1),
    nn.Flatten(),
    nn.Linear(16, len(CLASSES)),
)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
gen = torch.Generator().manual_seed(12)
grad_vs_conf = []

for it in range(6):
    x, y = synth_ecg(gen)
    logits = model(x)
    logp = F.log_softmax(logits, dim=1)

    conf = logp.detach().exp().max(dim=1).values

    def log_grad_vs_confidence(grad):
        grad_vs_conf.append((grad.norm(dim=1) * conf).mean().item())

    logits.register_hook(log_grad_vs_confidence)
    loss = F.nll_loss(logp, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it} nll {loss.item():.4f} grad*conf {grad_vs_conf[-1]:.4f}")
