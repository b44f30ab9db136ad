"""Streaming speech enhancement: a causal GRU mask estimator is trained on long noisy
recordings cut into chunks, carrying its GRU state from chunk to chunk (truncated BPTT).
Input features are normalised with running mean/variance buffers updated in place, and the
mask is floored at -26 dB."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SR, N_FFT, HOP, CHUNK = 4000, 128, 64, 8
BINS = N_FFT // 2 + 1
MASK_FLOOR = 10 ** (-26 / 20)


def recordings(n, seconds, gen):
    t = torch.arange(int(SR * seconds)) / SR
    f0 = 110 + 90 * torch.rand(n, 1, generator=gen)
    clean = sum(torch.sin(2 * math.pi * k * f0 * t) / k for k in range(1, 5))
    clean = clean * (0.5 + 0.5 * torch.sin(2 * math.pi * 2 * t))
    return clean, clean + 0.4 * torch.randn(n, t.numel(), generator=gen)


def magnitude(wave):
    spec = torch.stft(wave, N_FFT, HOP, window=torch.hann_window(N_FFT), return_complex=True)
    return spec.abs().transpose(1, 2)


class StreamingMasker(nn.Module):
    def __init__(self, hidden=48, momentum=0.05):
        super().__init__()
        self.register_buffer("feat_mean", torch.zeros(BINS))
        self.register_buffer("feat_var", torch.ones(BINS))
        self.momentum = momentum
        self.rnn = nn.GRU(BINS, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, BINS)

    def forward(self, noisy_mag, state=None):
        feats = torch.log1p(noisy_mag)
        if self.training:
            with torch.no_grad():
                self.feat_mean.lerp_(feats.mean(dim=(0, 1)), self.momentum)
                self.feat_var.lerp_(feats.var(dim=(0, 1)), self.momentum)
        feats = (feats - self.feat_mean) / (self.feat_var + 1e-5).sqrt()
        h, state = self.rnn(feats, state)
        mask = torch.sigmoid(self.proj(h)).clamp(min=MASK_FLOOR)
        return mask, state


def main(epochs=2):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    model = StreamingMasker()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    clean, noisy = recordings(4, 0.5, gen)
    clean_mag, noisy_mag = magnitude(clean), magnitude(noisy)
    n_chunks = noisy_mag.size(1) // CHUNK
    for epoch in range(epochs):
        state = None
        for c in range(n_chunks):
            span = slice(c * CHUNK, (c + 1) * CHUNK)
            if state is not None:
                state = state.detach()
            mask, state = model(noisy_mag[:, span], state)
            est = mask * noisy_mag[:, span]
            loss = F.mse_loss(est.clamp(min=1e-8) ** 0.3, clean_mag[:, span] ** 0.3)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            gap = mask.detach().clone()
            gap.sub_(MASK_FLOOR).clamp_(min=0.0)
            at_floor = (gap < 1e-3).float().mean().item()
            print(f"epoch {epoch} chunk {c} loss {loss.item():.5f} "
                  f"mask mean {mask.mean().item():.3f} at floor {at_floor:.3f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f} feat mean {model.feat_mean.mean().item():.4f}")


if __name__ == "__main__":
    main()
