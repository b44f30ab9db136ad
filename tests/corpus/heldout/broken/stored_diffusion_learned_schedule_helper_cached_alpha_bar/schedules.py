"""Noise schedules for the denoiser. LearnedSchedule parameterises the per-step betas by a
positive increment vector, so that the cumulative signal level is monotone by construction."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LearnedSchedule(nn.Module):
    def __init__(self, n_steps, beta_min=1e-4, beta_max=0.2):
        super().__init__()
        self.n_steps = n_steps
        self.beta_min, self.beta_max = beta_min, beta_max
        self.raw = nn.Parameter(torch.zeros(n_steps))
        self._alpha_bar = None

    def alpha_bar(self):
        # cumprod over all steps is recomputed for every batch otherwise; keep it around
        if self._alpha_bar is None:
            weights = F.softmax(self.raw, dim=0)
            betas = self.beta_min + (self.beta_max - self.beta_min) * torch.cumsum(weights, 0)
            self._alpha_bar = torch.cumprod(1 - betas, dim=0)
        return self._alpha_bar

    def q_sample(self, x0, t, noise):
        ab = self.alpha_bar()[t][:, None]
        return ab.sqrt() * x0 + (1 - ab).sqrt() * noise, ab


class LinearSchedule:
    def __init__(self, n_steps, beta_min=1e-4, beta_max=0.2):
        betas = torch.linspace(beta_min, beta_max, n_steps)
        self.table = torch.cumprod(1 - betas, dim=0)

    def alpha_bar(self):
        return self.table
