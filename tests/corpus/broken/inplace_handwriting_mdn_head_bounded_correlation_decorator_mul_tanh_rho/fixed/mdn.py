"""Mixture density output layer for pen-stroke generation (Graves, 2013): a mixture of
bivariate Gaussians over the next pen offset plus a Bernoulli end-of-stroke bit."""
import functools
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

RHO_MARGIN = 1e-3


@dataclass
class MixtureParams:
    log_pi: torch.Tensor
    mu_x: torch.Tensor
    mu_y: torch.Tensor
    sigma_x: torch.Tensor
    sigma_y: torch.Tensor
    rho: torch.Tensor
    eos_logit: torch.Tensor


def bounded_correlation(forward):
    """Keeps |rho| strictly below one: the bivariate density divides by 1 - rho**2."""
    @functools.wraps(forward)
    def wrapper(*args, **kwargs):
        params = forward(*args, **kwargs)
        params.rho = params.rho * (1.0 - RHO_MARGIN)
        return params
    return wrapper


class MDNHead(nn.Module):
    def __init__(self, hidden, components):
        super().__init__()
        self.components = components
        self.proj = nn.Linear(hidden, 6 * components + 1)

    @bounded_correlation
    def forward(self, h):
        k = self.components
        pi_hat, mx, my, sx_hat, sy_hat, rho_hat, eos = self.proj(h).split([k] * 6 + [1], dim=-1)
        return MixtureParams(log_pi=F.log_softmax(pi_hat, dim=-1), mu_x=mx, mu_y=my,
                             sigma_x=sx_hat.exp(), sigma_y=sy_hat.exp(),
                             rho=torch.tanh(rho_hat), eos_logit=eos.squeeze(-1))


def stroke_nll(params, target):
    """Negative log-likelihood of target (..., 3) = (dx, dy, pen_up) under the mixture."""
    dx, dy, pen_up = target[..., :1], target[..., 1:2], target[..., 2]
    zx = (dx - params.mu_x) / params.sigma_x
    zy = (dy - params.mu_y) / params.sigma_y
    one_minus_rho2 = 1 - params.rho ** 2
    log_density = -(zx ** 2 + zy ** 2 - 2 * params.rho * zx * zy) / (2 * one_minus_rho2) \
        - torch.log(2 * math.pi * params.sigma_x * params.sigma_y) - 0.5 * torch.log(one_minus_rho2)
    offset_nll = -torch.logsumexp(params.log_pi + log_density, dim=-1)
    eos_nll = F.binary_cross_entropy_with_logits(params.eos_logit, pen_up, reduction="none")
    return (offset_nll + eos_nll).mean()
