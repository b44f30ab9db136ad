"""Speech enhancement with a GRU mask estimator on STFT magnitudes (synthetic speech-like
harmonics plus noise); logs mask saturation statistics every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from diagnostics import MaskMonitor

N_BINS, FRAMES, HIDDEN = 33, 20, 48


class MaskEstimator(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(N_BINS)
        self.gru = nn.GRU(N_BINS, HIDDEN, batch_first=True)
        self.mask_head = nn.Linear(HIDDEN, N_BINS)

    def forward(self, noisy_mag):
        h, _ = self.gru(self.norm(torch.log1p(noisy_mag)))
        mask = torch.sigmoid(self.mask_head(h))
        return noisy_mag * mask


def make_pair(batch):
    f0_bin = torch.randint(2, 6, (batch, 1, 1))
    bins = torch.arange(N_BINS).view(1, 1, -1)
    clean = (bins % f0_bin == 0).float() * torch.rand(batch, FRAMES, 1) * 2.0
    noise = 0.4 * torch.rand(batch, FRAMES, N_BINS)
    return clean + noise, clean


def main(steps=5):
    torch.manual_seed(0)
    model = MaskEstimator()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    monitor = MaskMonitor()
    for step in range(steps):
        noisy, clean = make_pair(batch=6)
        enhanced = model(noisy)
        loss = F.l1_loss(enhanced, clean) + 0.5 * F.mse_loss(torch.log1p(enhanced), torch.log1p(clean))
        stats = monitor.log(step, enhanced)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} mask mean {stats['mean']:.3f} "
              f"closed {stats['closed']:.3f} open {stats['open']:.3f}")


if __name__ == "__main__":
    main()
