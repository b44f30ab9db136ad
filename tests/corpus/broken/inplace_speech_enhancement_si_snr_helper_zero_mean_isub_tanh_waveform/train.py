"""Time-domain speech enhancement on synthetic data: voiced "speech" (harmonic tones with a
syllable envelope) in white/brown noise. A small mask-based conv encoder/decoder with a tanh
output is trained on negative SI-SNR (losses.py); a callback logs the SNR improvement."""
import math

import torch
import torch.nn as nn

from losses import neg_si_snr

SR, SECONDS = 4000, 0.25
T = int(SR * SECONDS)


def voiced(batch, gen):
    t = torch.arange(T) / SR
    f0 = 110 + 120 * torch.rand(batch, 1, generator=gen)
    wave = sum(torch.sin(2 * math.pi * k * f0 * t) / k for k in range(1, 5))
    syll = 3 + 3 * torch.rand(batch, 1, generator=gen)
    env = torch.sin(math.pi * syll * t).clamp(min=0)
    return 0.5 * wave * env


def noisy_batches(n_batches, batch, gen):
    for _ in range(n_batches):
        clean = voiced(batch, gen)
        white = torch.randn(batch, T, generator=gen)
        brown = torch.cumsum(torch.randn(batch, T, generator=gen), dim=-1)
        brown = brown / brown.abs().amax(dim=-1, keepdim=True)
        noise = 0.2 * white + 0.3 * brown
        yield clean + noise, clean


class MaskEnhancer(nn.Module):
    def __init__(self, ch=24, kernel=16, stride=8):
        super().__init__()
        self.encoder = nn.Conv1d(1, ch, kernel, stride=stride, padding=kernel // 2 - stride // 2)
        self.masker = nn.Sequential(nn.Conv1d(ch, ch, 3, padding=1), nn.PReLU(),
                                    nn.Conv1d(ch, ch, 3, padding=1), nn.Sigmoid())
        self.decoder = nn.ConvTranspose1d(ch, 1, kernel, stride=stride,
                                          padding=kernel // 2 - stride // 2)

    def forward(self, mixture):
        w = torch.relu(self.encoder(mixture.unsqueeze(1)))
        return torch.tanh(self.decoder(w * self.masker(w))).squeeze(1)[..., :mixture.size(-1)]


class SNRLogger:
    def on_batch_end(self, epoch, step, loss, mixture, clean):
        if step == 0:
            base = neg_si_snr(mixture, clean)
            print(f"epoch {epoch} loss {loss:.3f} (input {base.item():.3f})")


def fit(model, optimizer, epochs=3, batches=2, batch=8, callbacks=()):
    gen = torch.Generator().manual_seed(7)
    for epoch in range(epochs):
        for step, (mixture, clean) in enumerate(noisy_batches(batches, batch, gen)):
            enhanced = model(mixture)
            loss = neg_si_snr(enhanced, clean)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            for cb in callbacks:
                cb.on_batch_end(epoch, step, loss.item(), mixture, clean)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MaskEnhancer()
    fit(model, torch.optim.Adam(model.parameters(), lr=2e-3), callbacks=[SNRLogger()])
