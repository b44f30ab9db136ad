"""VQ-VAE over short log-spectral frames of synthetic tones. Codes are chosen with an
argmin over distances, gradients reach the encoder through the straight-through
estimator, and the codebook is a buffer updated in place with exponential moving
averages (no codebook gradient)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_BINS, LATENT, N_CODES = 16, 4, 8


class EMAQuantizer(nn.Module):
    def __init__(self, n_codes=N_CODES, dim=LATENT, decay=0.9, eps=1e-5):
        super().__init__()
        self.decay, self.eps = decay, eps
        self.register_buffer("embed", torch.randn(n_codes, dim))
        self.register_buffer("cluster_size", torch.ones(n_codes))
        self.register_buffer("embed_sum", self.embed.clone())
        self.register_buffer("initialised", torch.tensor(False))

    @torch.no_grad()
    def init_from(self, z_e):
        """Data-dependent init: start the codes on encoder outputs of the first batch."""
        self.embed.copy_(z_e[torch.randperm(len(z_e))[: len(self.embed)]])
        self.embed_sum.copy_(self.embed)
        self.initialised.fill_(True)

    def forward(self, z_e):
        if self.training and not self.initialised:
            self.init_from(z_e)
        dist = torch.cdist(z_e, self.embed)
        codes = dist.argmin(dim=1)
        z_q = self.embed[codes]
        if self.training:
            with torch.no_grad():
                onehot = F.one_hot(codes, self.embed.shape[0]).type_as(z_e)
                self.cluster_size.mul_(self.decay).add_(onehot.sum(0), alpha=1 - self.decay)
                self.embed_sum.mul_(self.decay).add_(onehot.t() @ z_e, alpha=1 - self.decay)
                n = self.cluster_size.sum()
                size = (self.cluster_size + self.eps) / (n + N_CODES * self.eps) * n
                self.embed.copy_(self.embed_sum / size.unsqueeze(1))
        z_q_st = z_e + (z_q - z_e).detach()  # straight-through estimator
        commitment = F.mse_loss(z_e, z_q.detach())
        return z_q_st, codes, commitment


class FrameVQVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(N_BINS, 32), nn.ReLU(), nn.Linear(32, LATENT))
        self.quantizer = EMAQuantizer()
        self.decoder = nn.Sequential(nn.Linear(LATENT, 32), nn.ReLU(), nn.Linear(32, N_BINS))

    def forward(self, frames):
        z_q, codes, commitment = self.quantizer(self.encoder(frames))
        return self.decoder(z_q), codes, commitment


def tone_frames(n):
    pitch = torch.randint(0, 6, (n,))
    bins = torch.arange(N_BINS).float()
    centre = 2 + 2 * pitch.float()
    spectrum = torch.exp(-0.5 * ((bins - centre[:, None]) / 1.2) ** 2)
    spectrum = spectrum + 0.5 * torch.exp(-0.5 * ((bins - 2 * centre[:, None]) / 1.5) ** 2)
    return torch.log1p(10 * spectrum) + 0.05 * torch.randn(n, N_BINS)


model = FrameVQVAE()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
BETA = 0.25

for step in range(6):
    frames = tone_frames(48)
    recon, codes, commitment = model(frames)
    loss = F.mse_loss(recon, frames) + BETA * commitment
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    usage = torch.bincount(codes, minlength=N_CODES).float() / len(codes)
    perplexity = math.exp(-(usage * (usage + 1e-10).log()).sum().item())
    print(f"step {step} loss {loss.item():.5f} commit {commitment.item():.5f} "
          f"perplexity {perplexity:.3f}")

model.eval()
with torch.inference_mode():
    frames = tone_frames(64)
    recon, codes, _ = model(frames)
    print(f"eval mse {F.mse_loss(recon, frames).item():.5f} codes used {codes.unique().numel()}")
checksum = sum(p.detach().double().sum().item() for p in model.parameters())
print(f"param checksum {checksum:.6f} codebook sum {model.quantizer.embed.sum().item():.6f}")
