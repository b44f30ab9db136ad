"""Class-conditional DDPM on 2-D point clouds (three Gaussian blobs, one per class),
trained for classifier-free guidance: the class embedding is dropped to the null
condition for a random 20% of the batch so that one network learns both scores."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, T, EMB, BATCH, STEPS, P_UNCOND = 3, 50, 16, 64, 8, 0.2
CENTERS = torch.tensor([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.5]])

betas = torch.linspace(1e-4, 0.05, T)
alphas_bar = torch.cumprod(1.0 - betas, dim=0)


def timestep_features(t):
    freqs = torch.exp(-torch.arange(EMB // 2) * 0.5)
    angles = t.float()[:, None] * freqs[None, :]
    return torch.cat([angles.sin(), angles.cos()], dim=1)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(N_CLASSES, EMB)
        self.time_mlp = nn.Sequential(nn.Linear(EMB, EMB), nn.SiLU())
        self.net = nn.Sequential(nn.Linear(2 + 2 * EMB, 64), nn.SiLU(), nn.Linear(64, 64),
                                 nn.SiLU(), nn.Linear(64, 2))

    def forward(self, x_t, t, cond):
        return self.net(torch.cat([x_t, self.time_mlp(timestep_features(t)), cond], dim=1))


def drop_condition(cond, p):
    """Zero the class embedding (the null condition) for a random fraction p of rows."""
    cond = cond.detach().clone()
    cond[torch.rand(cond.shape[0]) < p] = 0.0
    return cond


def sample_batch(n):
    y = torch.randint(0, N_CLASSES, (n,))
    return CENTERS[y] + 0.3 * torch.randn(n, 2), y


model = Denoiser()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(STEPS):
    x0, y = sample_batch(BATCH)
    t = torch.randint(0, T, (BATCH,))
    noise = torch.randn_like(x0)
    ab = alphas_bar[t][:, None]
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
    cond = drop_condition(model.label_emb(y), P_UNCOND)
    loss = F.mse_loss(model(x_t, t, cond), noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} eps-mse {loss.item():.4f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
