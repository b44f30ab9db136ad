"""Learning the dynamics of damped oscillators seen through a fixed 4-channel sensor map.
An encoder maps the first observation to a 2-d latent state, ode.py integrates the latent
dynamics (learned generator A plus a nonlinear correction), and a decoder maps the latent
trajectory back to sensor space."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ode import integrate, make_stepper

LATENT, OBS, DT, HORIZON, BATCH, EPOCHS, BATCHES = 2, 4, 0.1, 10, 8, 2, 3


class LatentDynamics(nn.Module):
    def __init__(self):
        super().__init__()
        self.A = nn.Parameter(0.1 * torch.randn(LATENT, LATENT))
        self.correction = nn.Sequential(nn.Linear(LATENT, 16), nn.Tanh(), nn.Linear(16, LATENT))


class OscillatorModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(OBS, 16), nn.Tanh(), nn.Linear(16, LATENT))
        self.dynamics = LatentDynamics()
        self.decoder = nn.Linear(LATENT, OBS)


def oscillator_batch(sensor):
    omega = 1.0 + torch.rand(BATCH, 1)
    damping = 0.1 * torch.rand(BATCH, 1)
    phase = 2 * torch.pi * torch.rand(BATCH, 1)
    t = torch.arange(HORIZON + 1) * DT
    x = torch.exp(-damping * t) * torch.cos(omega * t + phase)
    v = torch.exp(-damping * t) * torch.sin(omega * t + phase)
    return torch.stack([x, v], -1) @ sensor  # (B, HORIZON + 1, OBS)


def main():
    torch.manual_seed(0)
    sensor = torch.randn(LATENT, OBS)
    model = OscillatorModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    step = make_stepper(model.dynamics, DT)
    for epoch in range(EPOCHS):
        for b in range(BATCHES):
            obs = oscillator_batch(sensor)
            z0 = model.encoder(obs[:, 0])
            pred = model.decoder(integrate(step, z0, HORIZON))
            loss = F.mse_loss(pred, obs[:, 1:])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {b} mse {loss.item():.4f}")


if __name__ == "__main__":
    main()
