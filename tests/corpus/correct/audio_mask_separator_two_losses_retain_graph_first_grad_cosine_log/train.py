"""Speech/noise separation with a magnitude-mask network on synthetic spectrograms. Two
losses share one forward: a mask-domain L1 and a log-energy consistency term. The first
backward keeps the graph (retain_graph=True) so the shared encoder's per-loss gradient can
be snapshotted and the cosine between the two terms logged; the second backward frees it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
N_FREQ, FRAMES, BATCH = 20, 16, 6


class MaskNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.encoder = nn.GRU(N_FREQ, hidden, batch_first=True)
        self.mask_head = nn.Linear(hidden, N_FREQ)

    def forward(self, mix_mag):
        h, _ = self.encoder(mix_mag.transpose(1, 2))
        return torch.sigmoid(self.mask_head(h)).transpose(1, 2)


def make_batch():
    speech = torch.rand(BATCH, N_FREQ, FRAMES) * torch.linspace(1.0, 0.2, N_FREQ)[:, None]
    noise = 0.4 * torch.rand(BATCH, N_FREQ, FRAMES)
    return speech + noise, speech


def flat_grad(module):
    return torch.cat([p.grad.reshape(-1) for p in module.parameters()])


model = MaskNet()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(5):
    mix, speech = make_batch()
    mask = model(mix)
    estimate = mask * mix
    ideal_mask = (speech / mix.clamp_min(1e-6)).clamp(0, 1)
    mask_loss = F.l1_loss(mask, ideal_mask)
    energy_loss = F.mse_loss(torch.log1p(estimate.sum(1)), torch.log1p(speech.sum(1)))

    optimizer.zero_grad()
    mask_loss.backward(retain_graph=True)
    g_mask = flat_grad(model.encoder).clone()
    (0.5 * energy_loss).backward()
    g_energy = flat_grad(model.encoder) - g_mask
    cosine = F.cosine_similarity(g_mask, g_energy, dim=0).item()
    optimizer.step()
    print(f"step {step} mask {mask_loss.item():.6f} energy {energy_loss.item():.6f} cos {cosine:+.6f}")

print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
