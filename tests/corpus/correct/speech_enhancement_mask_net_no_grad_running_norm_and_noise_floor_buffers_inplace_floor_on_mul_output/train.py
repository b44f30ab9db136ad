"""Train the mask enhancer (enhancer.py) on synthetic harmonic "speech" in noise, on a
log-compressed magnitude loss. A loss EMA lives in a plain tensor updated in place from
detached values."""
import math

import torch
import torch.nn.functional as F

from enhancer import MaskEnhancer

SR, N_FFT, HOP = 4000, 64, 32
T = SR // 4


def make_batch(batch, gen):
    t = torch.arange(T) / SR
    f0 = 120 + 100 * torch.rand(batch, 1, generator=gen)
    clean = sum(torch.sin(2 * math.pi * k * f0 * t) / k for k in range(1, 4))
    clean = clean * torch.sin(math.pi * 4 * t).clamp(min=0)
    noisy = clean + 0.4 * torch.randn(batch, T, generator=gen)
    window = torch.hann_window(N_FFT)
    spec = lambda x: torch.stft(x, N_FFT, HOP, window=window, return_complex=True).abs().transpose(1, 2)
    return spec(noisy), spec(clean)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(12)
    model = MaskEnhancer(n_freq=N_FFT // 2 + 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_ema = torch.zeros(())
    for step in range(7):
        noisy_mag, clean_mag = make_batch(8, gen)
        enhanced = model(noisy_mag)
        loss = F.mse_loss(torch.log1p(enhanced), torch.log1p(clean_mag))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_ema.mul_(0.8).add_(0.2 * loss.detach())
        print(f"step {step} loss {loss.item():.6f} ema {loss_ema.item():.6f} "
              f"floor {model.noise_floor.mean().item():.5f}")
    print(f"checksum {sum(p.double().sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
