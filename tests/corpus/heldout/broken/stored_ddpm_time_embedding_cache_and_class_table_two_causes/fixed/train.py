"""Class-conditional DDPM on 6-D vectors drawn from four class-dependent Gaussians, with
classifier-free guidance dropout on the class embedding."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from denoiser import ConditionalDenoiser

DATA_DIM, HIDDEN, N_CLASSES, T, BATCH, P_UNCOND = 6, 32, 4, 10, 32, 0.2

torch.manual_seed(0)
betas = torch.linspace(1e-3, 0.2, T)
alpha_bar = torch.cumprod(1.0 - betas, dim=0)
class_means = 2.0 * torch.randn(N_CLASSES, DATA_DIM)


def sample_data(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    return class_means[labels] + 0.3 * torch.randn(n, DATA_DIM), labels


denoiser = ConditionalDenoiser(DATA_DIM, HIDDEN)
label_encoder = nn.Sequential(nn.Embedding(N_CLASSES, HIDDEN), nn.Linear(HIDDEN, HIDDEN))
null_embedding = nn.Parameter(torch.zeros(HIDDEN))
optimizer = torch.optim.AdamW([*denoiser.parameters(), *label_encoder.parameters(),
                               null_embedding], lr=1e-3)

for step in range(6):
    x0, labels = sample_data(BATCH)
    t = torch.randint(0, T, (BATCH,))
    noise = torch.randn_like(x0)
    ab = alpha_bar[t].unsqueeze(1)
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise

    drop = (torch.rand(BATCH) < P_UNCOND).unsqueeze(1)
    cond = torch.where(drop, null_embedding.expand(BATCH, -1), label_encoder(labels))
    loss = F.mse_loss(denoiser(x_t, t, cond), noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} cached timesteps {len(denoiser.time_embed._cache)}")
