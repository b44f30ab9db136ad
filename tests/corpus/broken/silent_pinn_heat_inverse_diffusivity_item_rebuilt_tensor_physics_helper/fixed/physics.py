"""1-D heat equation u_t = alpha * u_xx: residuals and the physical diffusivity."""
import torch

ALPHA_RANGE = (1e-3, 1.0)


def diffusivity(model):
    """The diffusivity the PDE uses, kept inside its physical range."""
    lo, hi = ALPHA_RANGE
    return model.log_alpha.exp().clamp(lo, hi)


def heat_residual(model, x, t, alpha):
    x = x.clone().requires_grad_(True)
    t = t.clone().requires_grad_(True)
    u = model(x, t)
    ones = torch.ones_like(u)
    u_t, u_x = torch.autograd.grad(u, (t, x), ones, create_graph=True)
    u_xx = torch.autograd.grad(u_x, x, torch.ones_like(u_x), create_graph=True)[0]
    return u_t - alpha * u_xx


def boundary_loss(model, t):
    zeros, ones = torch.zeros_like(t), torch.ones_like(t)
    return model(zeros, t).pow(2).mean() + model(ones, t).pow(2).mean()
