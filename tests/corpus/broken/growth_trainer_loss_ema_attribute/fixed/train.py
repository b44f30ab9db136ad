"""Denoising autoencoder with a Trainer class that keeps an exponential moving average of
the loss on self for its progress line."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DIM, CODE = 20, 6


class DenoisingAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(DIM, 12), nn.Tanh(), nn.Linear(12, CODE))
        self.dec = nn.Sequential(nn.Linear(CODE, 12), nn.Tanh(), nn.Linear(12, DIM))

    def forward(self, x):
        return self.dec(self.enc(x))


class Trainer:
    def __init__(self, model, lr=1e-2, noise=0.2):
        self.model = model
        self.noise = noise
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.loss_ema = 0.0

    def step(self, x):
        noisy = x + self.noise * torch.randn_like(x)
        loss = F.mse_loss(self.model(noisy), x)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.loss_ema = 0.9 * self.loss_ema + 0.1 * loss.item()
        return loss.item()

    def run(self, data, steps):
        for i in range(steps):
            self.step(data[i % len(data)])
            if i % 4 == 3:
                print(f"step {i} loss ema {self.loss_ema:.4f}")


data = [torch.randn(16, DIM) for _ in range(4)]
trainer = Trainer(DenoisingAE())
trainer.run(data, steps=12)
print(f"final loss ema {trainer.loss_ema:.4f}")
