"""DDPM noise schedule and loss-aware timestep sampling (sample the timesteps whose loss is
currently high more often, as in improved DDPM)."""
import torch


def linear_schedule(n_steps, beta_start=1e-4, beta_end=0.02):
    betas = torch.linspace(beta_start, beta_end, n_steps)
    return torch.cumprod(1 - betas, dim=0)


class TimestepLossTracker:
    """Exponential moving average of the training loss per timestep bucket."""

    def __init__(self, n_steps, n_buckets=10, decay=0.9):
        self.n_steps, self.n_buckets, self.decay = n_steps, n_buckets, decay
        self.ema = torch.ones(n_buckets)

    def bucket(self, t):
        return t * self.n_buckets // self.n_steps

    def update(self, t, per_sample_loss):
        b = self.bucket(t)
        sums = torch.zeros(self.n_buckets).index_add(0, b, per_sample_loss.detach())
        counts = torch.bincount(b, minlength=self.n_buckets).float()
        batch_mean = sums / counts.clamp(min=1)
        self.ema = torch.where(counts > 0, self.decay * self.ema + (1 - self.decay) * batch_mean,
                               self.ema)

    def sample(self, n):
        probs = self.ema / self.ema.sum()
        buckets = torch.multinomial(probs, n, replacement=True)
        width = self.n_steps // self.n_buckets
        return buckets * width + torch.randint(0, width, (n,))
