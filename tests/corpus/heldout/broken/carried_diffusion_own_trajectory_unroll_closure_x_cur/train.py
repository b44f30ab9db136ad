"""DDPM-style noise predictor on a 2-D spiral, with a small fix for exposure bias: besides
the usual random-timestep batches, every few steps the model is trained on points taken
from its OWN reverse trajectory (x_t produced by its previous denoising step), as in
trajectory/rollout training of diffusion policies. The rollout state lives in a closure."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, BATCH, STRIDE = 40, 64, 5
betas = torch.linspace(1e-4, 0.08, T)
alphas = 1.0 - betas
alpha_bar = torch.cumprod(alphas, dim=0)


def sample_spiral(n):
    r = torch.rand(n) * 3.0 + 0.5
    return torch.stack([r * torch.cos(2 * r), r * torch.sin(2 * r)], dim=1) / 3.0


class NoisePredictor(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, hidden)
        self.inp = nn.Linear(2, hidden)
        self.body = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.out = nn.Linear(hidden, 2)

    def forward(self, x, t):
        return self.out(self.body(self.inp(x) + self.t_embed(t)))


def make_rollout_step(model, optimizer):
    """Returns step(): one denoising step along the model's own trajectory, trained
    against the noise implied by the clean points it started from."""
    x0 = sample_spiral(BATCH)
    x_cur, t_cur = None, T - 1

    def step():
        nonlocal x0, x_cur, t_cur
        if x_cur is None or t_cur < 0:
            x0, t_cur = sample_spiral(BATCH), T - 1
            x_cur = alpha_bar[t_cur].sqrt() * x0 + (1 - alpha_bar[t_cur]).sqrt() * torch.randn_like(x0)
        t = torch.full((BATCH,), t_cur, dtype=torch.long)
        eps_target = (x_cur - alpha_bar[t_cur].sqrt() * x0) / (1 - alpha_bar[t_cur]).sqrt()
        eps_hat = model(x_cur, t)
        loss = F.mse_loss(eps_hat, eps_target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        # DDIM-style jump of STRIDE steps along the model's own prediction
        t_next = t_cur - STRIDE
        x0_hat = (x_cur - (1 - alpha_bar[t_cur]).sqrt() * eps_hat) / alpha_bar[t_cur].sqrt()
        ab_next = alpha_bar[t_next] if t_next >= 0 else torch.tensor(1.0)
        x_cur = ab_next.sqrt() * x0_hat + (1 - ab_next).sqrt() * eps_hat
        t_cur = t_next
        return loss.item()

    return step


def train_random_t(model, optimizer):
    x0 = sample_spiral(BATCH)
    t = torch.randint(0, T, (BATCH,))
    noise = torch.randn_like(x0)
    ab = alpha_bar[t].unsqueeze(1)
    loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


model = NoisePredictor()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
rollout_step = make_rollout_step(model, optimizer)
for it in range(6):
    base = train_random_t(model, optimizer)
    roll = rollout_step()
    print(f"iter {it} random-t loss {base:.4f} rollout loss {roll:.4f} (t={max(T - 1 - STRIDE * (it + 1), -1)})")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
