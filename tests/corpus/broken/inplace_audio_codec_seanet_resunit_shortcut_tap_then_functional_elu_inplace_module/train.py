from dataclasses import dataclass

import torch
import torch.nn.functional as F

from seanet import Decoder, Encoder


@dataclass
class CodecConfig:
    steps: int = 5
    batch: int = 4
    length: int = 64
    levels: int = 4
    lr: float = 3e-3


def quantize(z, levels):
    """Finite scalar quantization with a straight-through estimator."""
    z = torch.tanh(z)
    zq = torch.round(z * levels) / levels
    return z + (zq - z).detach()


def toy_audio(cfg, gen):
    t = torch.linspace(0, 1, cfg.length)
    freq = torch.randint(2, 9, (cfg.batch, 1), generator=gen).float()
    return 0.5 * torch.sin(2 * torch.pi * freq * t).unsqueeze(1)


def spectral_l1(x, y, n_fft=16):
    win = torch.hann_window(n_fft)
    X = torch.stft(x.squeeze(1), n_fft, hop_length=4, window=win, return_complex=True).abs()
    Y = torch.stft(y.squeeze(1), n_fft, hop_length=4, window=win, return_complex=True).abs()
    return (X - Y).abs().mean()


def train(cfg):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    enc, dec = Encoder(), Decoder()
    params = list(enc.parameters()) + list(dec.parameters())
    opt = torch.optim.Adam(params, lr=cfg.lr)
    for step in range(cfg.steps):
        wav = toy_audio(cfg, gen)
        recon = dec(quantize(enc(wav), cfg.levels))
        loss = F.l1_loss(recon, wav) + spectral_l1(recon, wav)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(CodecConfig())
