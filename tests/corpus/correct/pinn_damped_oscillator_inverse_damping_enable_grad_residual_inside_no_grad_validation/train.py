"""Inverse PINN for a damped oscillator u'' + 2*zeta*omega*u' + omega^2*u = 0 (omega known):
the network u(t) fits 24 noisy displacement readings while the ODE residual, evaluated with
autograd derivatives, pins down the unknown damping ratio zeta = sigmoid(zeta_logit).
Validation runs under no_grad but re-enables grad locally for the residual derivatives."""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
OMEGA, ZETA_TRUE = 4.0, 0.15


class OscillatorPINN(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width),
                                 nn.Tanh(), nn.Linear(width, 1))
        self.zeta_logit = nn.Parameter(torch.tensor(0.0))  # zeta starts at 0.5

    @property
    def zeta(self):
        return torch.sigmoid(self.zeta_logit)

    def forward(self, t):
        return self.net(t)


def residual(model, t):
    t = t.detach().requires_grad_(True)
    u = model(t)
    du = torch.autograd.grad(u, t, torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, t, torch.ones_like(du), create_graph=True)[0]
    return d2u + 2 * model.zeta * OMEGA * du + OMEGA ** 2 * u


def exact(t):
    """Closed-form underdamped solution with u(0)=1, u'(0)=0 (NumPy, for the readings)."""
    wd = OMEGA * math.sqrt(1 - ZETA_TRUE ** 2)
    return np.exp(-ZETA_TRUE * OMEGA * t) * (np.cos(wd * t) + ZETA_TRUE * OMEGA / wd * np.sin(wd * t))


def validate(model, t_grid):
    with torch.no_grad():
        u = model(t_grid)
        err = np.abs(u.squeeze(1).numpy() - exact(t_grid.squeeze(1).numpy())).max()
        with torch.enable_grad():
            res = residual(model, t_grid).pow(2).mean().item()
    return float(err), res


def main():
    rng = np.random.default_rng(0)
    t_obs_np = np.sort(rng.uniform(0, 2, 24))
    u_obs_np = exact(t_obs_np) + 0.01 * rng.standard_normal(24)
    t_obs = torch.tensor(t_obs_np, dtype=torch.float32)[:, None]
    u_obs = torch.tensor(u_obs_np, dtype=torch.float32)[:, None]
    t_grid = torch.linspace(0, 2, 50)[:, None]

    model = OscillatorPINN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(8):
        t_col = 2 * torch.rand(64, 1)
        data = (model(t_obs) - u_obs).pow(2).mean()
        ode = residual(model, t_col).pow(2).mean() / OMEGA ** 4
        loss = data + ode
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} data {data.item():.5f} ode {ode.item():.5f} zeta {model.zeta.item():.4f}")
    err, res = validate(model, t_grid)
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"max abs error {err:.4f} residual {res:.4f} zeta {model.zeta.item():.4f} "
          f"checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
