"""DDPM pieces shared by the training script and the sampler."""
import torch

T_STEPS = 50
betas = torch.linspace(1e-4, 0.02, T_STEPS)
alphas_bar = torch.cumprod(1.0 - betas, dim=0)


def q_sample(x0, t, noise):
    """Noise clean samples x0 to timestep t."""
    keep = alphas_bar[t].sqrt()[:, None]
    spread = (1.0 - alphas_bar[t]).sqrt()[:, None]
    return keep * x0 + spread * noise


def predict_noise(model, x_t, t):
    """Denoiser call with the timestep appended as a feature in [0, 1]."""
    with torch.no_grad():
        t_feature = (t.float() / T_STEPS)[:, None]
        return model(torch.cat([x_t, t_feature], dim=1))


@torch.no_grad()
def sample(model, n, dim):
    """Ancestral sampling from pure noise down to t = 0."""
    x = torch.randn(n, dim)
    for step in reversed(range(T_STEPS)):
        t = torch.full((n,), step)
        eps = predict_noise(model, x, t)
        coef = betas[step] / (1.0 - alphas_bar[step]).sqrt()
        x = (x - coef * eps) / (1.0 - betas[step]).sqrt()
        if step > 0:
            x = x + betas[step].sqrt() * torch.randn_like(x)
    return x
