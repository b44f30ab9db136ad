"""DDPM on a 2-D ring of Gaussian blobs with the MLP denoiser from model.py, trained by a small
Trainer that keeps the noise schedule, optimizer and loss history on self."""
import math

import torch
import torch.nn.functional as F

from model import Denoiser


def ring_of_blobs(n, n_blobs=6, radius=2.0):
    angles = 2 * math.pi * torch.randint(0, n_blobs, (n,)) / n_blobs
    centres = radius * torch.stack([torch.cos(angles), torch.sin(angles)], dim=1)
    return centres + 0.15 * torch.randn(n, 2)


class DiffusionTrainer:
    def __init__(self, model, timesteps=100, lr=2e-3):
        self.model = model
        self.timesteps = timesteps
        betas = torch.linspace(1e-4, 0.05, timesteps)
        self.alphas_bar = torch.cumprod(1 - betas, dim=0)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
        self.history = []

    def q_sample(self, x0, t, noise):
        ab = self.alphas_bar[t].unsqueeze(1)
        return ab.sqrt() * x0 + (1 - ab).sqrt() * noise

    def train_step(self, x0):
        t = torch.randint(0, self.timesteps, (x0.shape[0],))
        noise = torch.randn_like(x0)
        loss = F.mse_loss(self.model(self.q_sample(x0, t, noise), t), noise)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
        return loss.item()

    def fit(self, steps, batch_size=128, log_every=2):
        self.model.train()
        for step in range(steps):
            loss = self.train_step(ring_of_blobs(batch_size))
            if step % log_every == 0:
                print(f"step {step} loss {loss:.4f}")
        return sum(self.history[-3:]) / 3


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = DiffusionTrainer(Denoiser())
    final = trainer.fit(steps=8)
    print(f"mean loss over last 3 steps {final:.4f}")
