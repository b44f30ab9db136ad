"""FactorVAE on synthetic data generated from four independent factors. The VAE loss adds a
total-correlation penalty estimated by a discriminator D that tells samples of q(z) from
samples of the product of its marginals (z with each dimension permuted across the batch);
D is trained on the same D(z) output in a second update."""
import torch
import torch.nn as nn
import torch.nn.functional as F

X_DIM, Z_DIM, GAMMA = 16, 4, 6.0


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(X_DIM, 32), nn.ReLU(), nn.Linear(32, 2 * Z_DIM))
        self.decoder = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, X_DIM))

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decoder(z), mu, logvar, z


def permute_dims(z):
    return torch.stack([col[torch.randperm(z.size(0))] for col in z.t()], dim=1)


def make_batch(mixing, n=64):
    factors = torch.rand(n, Z_DIM) * 2 - 1
    return torch.tanh(factors @ mixing) + 0.05 * torch.randn(n, X_DIM)


def train(steps=5):
    torch.manual_seed(0)
    mixing = torch.randn(Z_DIM, X_DIM)
    vae = VAE()
    D = nn.Sequential(nn.Linear(Z_DIM, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))
    optim_vae = torch.optim.Adam(vae.parameters(), lr=1e-3)
    optim_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
    ones = torch.ones(64, dtype=torch.long)
    zeros = torch.zeros(64, dtype=torch.long)
    for step in range(steps):
        x1, x2 = make_batch(mixing), make_batch(mixing)

        # VAE update: reconstruction + KL + gamma * total correlation
        recon, mu, logvar, z = vae(x1)
        recon_loss = F.mse_loss(recon, x1, reduction="sum") / x1.size(0)
        kld = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
        D_z = D(z)
        tc = (D_z[:, 0] - D_z[:, 1]).mean()
        vae_loss = recon_loss + kld + GAMMA * tc
        optim_vae.zero_grad()
        vae_loss.backward()
        optim_vae.step()

        # discriminator update on q(z) samples vs. permuted samples
        with torch.no_grad():
            z_perm = permute_dims(vae(x2)[3])
        D_tc_loss = 0.5 * (F.cross_entropy(D(z.detach()), zeros) + F.cross_entropy(D(z_perm), ones))
        optim_d.zero_grad()
        D_tc_loss.backward()
        optim_d.step()
        print(f"step {step} vae {vae_loss.item():.3f} tc {tc.item():.3f} D {D_tc_loss.item():.3f}")


if __name__ == "__main__":
    train()
