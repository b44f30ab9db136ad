"""Class-conditional DDPM on 2-D blobs, trained jointly with a noise-aware classifier.
The classifier learns p(y | x_t, t) on noisy samples (for classifier guidance at sampling
time); the denoiser gets an extra term asking the classifier to recognise the class from
its x0 estimate, which sharpens the class modes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, N_CLASSES, BATCH, GUIDE_WEIGHT = 50, 4, 64, 0.1
betas = torch.linspace(1e-4, 0.05, T)
alpha_bar = torch.cumprod(1 - betas, dim=0)
CENTERS = torch.tensor([[1.5, 1.5], [-1.5, 1.5], [-1.5, -1.5], [1.5, -1.5]])


def sample_blobs(n):
    y = torch.randint(0, N_CLASSES, (n,))
    return CENTERS[y] + 0.3 * torch.randn(n, 2), y


class TimeMLP(nn.Module):
    def __init__(self, out_dim, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(2, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.head = nn.Linear(hidden, out_dim)

    def forward(self, x, t):
        return self.head(self.body(self.inp(x) + self.t_embed(t)))


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = TimeMLP(2)
        self.y_embed = nn.Embedding(N_CLASSES, 2)

    def forward(self, x, t, y):
        return self.net(x + self.y_embed(y), t)


denoiser, classifier = Denoiser(), TimeMLP(N_CLASSES, hidden=32)
den_opt = torch.optim.Adam(denoiser.parameters(), lr=2e-3)
cls_opt = torch.optim.Adam(classifier.parameters(), lr=2e-3)

for step in range(6):
    x0, y = sample_blobs(BATCH)
    t = torch.randint(0, T, (BATCH,))
    noise = torch.randn_like(x0)
    ab = alpha_bar[t].unsqueeze(1)
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise

    eps_hat = denoiser(x_t, t, y)
    x0_hat = (x_t - (1 - ab).sqrt() * eps_hat) / ab.sqrt()
    guide_logits = classifier(x0_hat, torch.zeros_like(t))

    cls_loss = F.cross_entropy(classifier(x_t, t), y)
    cls_opt.zero_grad()
    cls_loss.backward()
    cls_opt.step()

    den_loss = F.mse_loss(eps_hat, noise) + GUIDE_WEIGHT * F.cross_entropy(guide_logits, y)
    den_opt.zero_grad()
    den_loss.backward()
    den_opt.step()
    acc = (guide_logits.argmax(1) == y).float().mean().item()
    print(f"step {step} denoise {den_loss.item():.4f} classifier {cls_loss.item():.4f} x0-acc {acc:.2f}")
