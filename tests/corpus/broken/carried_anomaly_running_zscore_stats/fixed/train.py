"""Tabular anomaly detector: an autoencoder whose latent codes are z-scored with running
statistics; at test time the normalised latent norm is the anomaly score."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, LATENT, BATCH, STEPS = 8, 4, 16, 6


def normal_transactions(n):
    base = torch.randn(n, 3)
    mix = torch.tensor([[1.0, 0.5, 0.0, 0.2, -0.3, 0.0, 0.7, 0.1],
                        [0.0, 1.0, 0.4, 0.0, 0.2, -0.5, 0.0, 0.3],
                        [0.3, 0.0, 1.0, 0.6, 0.0, 0.2, -0.4, 0.0]])
    return base @ mix + 0.05 * torch.randn(n, N_FEATURES)


def train():
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ELU(), nn.Linear(16, LATENT))
    decoder = nn.Sequential(nn.Linear(LATENT, 16), nn.ELU(), nn.Linear(16, N_FEATURES))
    params = list(encoder.parameters()) + list(decoder.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-2)

    mu = torch.zeros(LATENT)
    sd = torch.ones(LATENT)
    for step in range(STEPS):
        x = normal_transactions(BATCH)
        z = encoder(x)
        mu = 0.9 * mu + 0.1 * z.detach().mean(0)
        sd = 0.9 * sd + 0.1 * z.detach().std(0)
        z_norm = (z - mu) / (sd + 1e-5)
        recon = F.mse_loss(decoder(z), x)
        compact = z_norm.pow(2).sum(1).mean()
        loss = recon + 0.01 * compact
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: recon {recon.item():.4f} compact {compact.item():.3f}")
    return encoder, mu, sd


if __name__ == "__main__":
    train()
