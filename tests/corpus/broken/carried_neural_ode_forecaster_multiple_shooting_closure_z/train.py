"""Latent neural-ODE forecaster for a long damped-oscillator recording, trained window by
window: an encoder maps the first observation to a latent state, a fixed-step RK2 solver
unrolls the learned dynamics across each window, and the latent state reached at the end of
one window is where the next window starts (so the model sees one continuous trajectory)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

OBS, LATENT, WINDOW, N_WINDOWS, DT = 2, 8, 6, 4, 0.2


class Dynamics(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LATENT, 32), nn.Tanh(), nn.Linear(32, LATENT))

    def forward(self, z):
        return self.net(z)


def rk2_unroll(f, z0, n_steps, dt):
    zs, z = [z0], z0
    for _ in range(n_steps):
        k1 = f(z)
        k2 = f(z + dt * k1)
        z = z + 0.5 * dt * (k1 + k2)
        zs.append(z)
    return torch.stack(zs, 1)


def make_window_trainer(encoder, dynamics, readout, optimizer):
    z = None

    def train_window(obs_window):
        nonlocal z
        if z is None:
            z = encoder(obs_window[:, 0])
        traj = rk2_unroll(dynamics, z, obs_window.size(1) - 1, DT)
        loss = F.mse_loss(readout(traj), obs_window)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        z = traj[:, -1]  # the next window starts where this one ended
        return loss.item()

    return train_window


def damped_oscillator(batch, n_steps):
    t = torch.arange(n_steps).float() * DT
    omega = 1.0 + torch.rand(batch, 1)
    decay = torch.exp(-0.1 * t)
    return torch.stack([decay * torch.cos(omega * t), decay * torch.sin(omega * t)], -1)


def main():
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(OBS, 16), nn.Tanh(), nn.Linear(16, LATENT))
    dynamics = Dynamics()
    readout = nn.Linear(LATENT, OBS)
    params = [*encoder.parameters(), *dynamics.parameters(), *readout.parameters()]
    optimizer = torch.optim.Adam(params, lr=1e-2)
    train_window = make_window_trainer(encoder, dynamics, readout, optimizer)

    series = damped_oscillator(batch=8, n_steps=N_WINDOWS * (WINDOW - 1) + 1)
    for k in range(N_WINDOWS):
        start = k * (WINDOW - 1)
        loss = train_window(series[:, start:start + WINDOW])
        print(f"window {k} t={start * DT:.1f}: mse {loss:.5f}")


if __name__ == "__main__":
    main()
