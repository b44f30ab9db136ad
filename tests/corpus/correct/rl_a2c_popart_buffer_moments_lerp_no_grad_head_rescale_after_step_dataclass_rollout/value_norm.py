"""PopArt: adaptive target normalisation that preserves the critic's unnormalised outputs.

The moments are buffers updated in place under no_grad from targets that carry no graph;
after each update, the value head is rescaled in place (also under no_grad) so that
sigma' * (w' h + b') + mu' == sigma * (w h + b) + mu."""
import torch
import torch.nn as nn


class PopArtHead(nn.Module):
    def __init__(self, in_features, beta=0.3, eps=1e-4):
        super().__init__()
        self.linear = nn.Linear(in_features, 1)
        self.beta, self.eps = beta, eps
        self.register_buffer("mu", torch.zeros(()))
        self.register_buffer("nu", torch.ones(()))

    @property
    def sigma(self):
        return (self.nu - self.mu ** 2).clamp(min=self.eps).sqrt()

    def forward(self, h):
        """Normalised value prediction."""
        return self.linear(h).squeeze(-1)

    def normalize(self, x):
        return (x - self.mu) / self.sigma

    def denormalize(self, x):
        return x * self.sigma + self.mu

    @torch.no_grad()
    def update(self, targets):
        assert not targets.requires_grad
        old_mu, old_sigma = self.mu.clone(), self.sigma
        self.mu.lerp_(targets.mean(), self.beta)
        self.nu.lerp_((targets ** 2).mean(), self.beta)
        new_sigma = self.sigma
        self.linear.weight.mul_(old_sigma / new_sigma)
        self.linear.bias.mul_(old_sigma).add_(old_mu - self.mu).div_(new_sigma)
