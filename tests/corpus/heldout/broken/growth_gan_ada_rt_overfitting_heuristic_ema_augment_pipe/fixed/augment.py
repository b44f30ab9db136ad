"""Adaptive discriminator augmentation (ADA, Karras et al. 2020) for 1-D signals: the
augmentation probability p is tuned from the overfitting heuristic r_t = E[sign(D(real))],
tracked here as an exponential moving average."""
import torch


class AdaptiveAugment:
    def __init__(self, target=0.6, ema=0.9, speed=0.05):
        self.target = target
        self.ema = ema
        self.speed = speed
        self.p = 0.0
        self.rt = torch.zeros(())

    def update(self, real_logits):
        self.rt = self.ema * self.rt + (1 - self.ema) * real_logits.detach().sign().mean()
        direction = 1.0 if self.rt > self.target else -1.0
        self.p = min(max(self.p + self.speed * direction, 0.0), 1.0)

    def __call__(self, x):
        """Random sign flip and additive noise, each applied with probability p."""
        n = x.shape[0]
        flip = (torch.rand(n, 1) < self.p).float()
        x = x * (1 - 2 * flip)
        noisy = (torch.rand(n, 1) < self.p).float()
        return x + noisy * 0.1 * torch.randn_like(x)
