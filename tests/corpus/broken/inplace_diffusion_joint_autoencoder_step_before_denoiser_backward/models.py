"""Autoencoder and latent denoiser for the joint latent-diffusion experiment."""
import math

import torch
import torch.nn as nn


class PatchAutoencoder(nn.Module):
    def __init__(self, pixels=64, latent=8, hidden=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(pixels, hidden), nn.SiLU(), nn.Linear(hidden, latent))
        self.decoder = nn.Sequential(nn.Linear(latent, hidden), nn.SiLU(), nn.Linear(hidden, pixels))

    def encode(self, x):
        return self.encoder(x)

    def decode(self, z):
        return self.decoder(z)


def timestep_embedding(t, dim, max_period=1000.0):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half).float() / half)
    args = t.float()[:, None] * freqs[None, :]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=1)


class LatentDenoiser(nn.Module):
    """Predicts the noise added to a latent at step t."""

    def __init__(self, latent=8, hidden=96, t_dim=16):
        super().__init__()
        self.t_dim = t_dim
        self.t_mlp = nn.Sequential(nn.Linear(t_dim, hidden), nn.SiLU())
        self.inp = nn.Linear(latent, hidden)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, latent))

    def forward(self, z_t, t):
        return self.out(self.inp(z_t) + self.t_mlp(timestep_embedding(t, self.t_dim)))
