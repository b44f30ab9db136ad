"""Toy neural audio codec: a strided 1-D conv encoder, finite scalar quantisation of the
latents, and a transposed-conv decoder, trained to reconstruct short synthetic chirps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossPrinter, QuantizerStats
from quant import quantize

torch.manual_seed(0)
LEVELS = 3


def chirps(n, length=64):
    t = torch.linspace(0, 1, length)[None]
    f0 = 2 + 6 * torch.rand(n, 1)
    return (torch.sin(2 * torch.pi * (f0 * t + 4 * t ** 2)) * torch.exp(-2 * t)).unsqueeze(1)


class Codec(nn.Module):
    def __init__(self, ch=16, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(1, ch, 4, 2, 1), nn.GELU(),
                                     nn.Conv1d(ch, latent, 4, 2, 1))
        self.decoder = nn.Sequential(nn.ConvTranspose1d(latent, ch, 4, 2, 1), nn.GELU(),
                                     nn.ConvTranspose1d(ch, 1, 4, 2, 1))

    def forward(self, wave):
        codes = quantize(10.0 * self.encoder(wave), LEVELS)
        return self.decoder(codes / LEVELS), codes


class CodecTrainer:
    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
        self.state, self.step = {}, 0

    def fire(self, event):
        for cb in self.callbacks:
            getattr(cb, event)(self)

    def fit(self, steps):
        for self.step in range(steps):
            wave = chirps(16)
            recon, codes = self.model(wave)
            loss = F.l1_loss(recon, wave) + F.mse_loss(recon, wave)
            self.state.update(loss=loss, codes=codes)
            self.optimizer.zero_grad()
            self.fire("on_before_backward")
            loss.backward()
            self.optimizer.step()
            self.fire("on_step_end")


if __name__ == "__main__":
    CodecTrainer(Codec(), [LossPrinter(), QuantizerStats(LEVELS)]).fit(5)
