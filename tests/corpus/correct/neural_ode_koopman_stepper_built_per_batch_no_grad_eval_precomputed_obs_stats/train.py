"""Damped oscillators seen through a fixed 4-channel sensor map: encoder -> latent split-step
ODE (learned generator A + nonlinear correction) -> decoder. Observations are standardised
with statistics computed once from a calibration sample before training."""
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

    def predict(self, obs):
        step = make_stepper(self.dynamics, DT)
        return self.decoder(integrate(step, self.encoder(obs[:, 0]), HORIZON))


def oscillator_batch(sensor, batch=BATCH):
    omega = 1.0 + torch.rand(batch, 1)
    damping = 0.1 * torch.rand(batch, 1)
    phase = 2 * torch.pi * torch.rand(batch, 1)
    t = torch.arange(HORIZON + 1) * DT
    x = torch.exp(-damping * t) * torch.cos(omega * t + phase)
    v = torch.exp(-damping * t) * torch.sin(omega * t + phase)
    return torch.stack([x, v], -1) @ sensor


def main():
    torch.manual_seed(0)
    sensor = torch.randn(LATENT, OBS)
    calibration = oscillator_batch(sensor, batch=64)
    mean, std = calibration.mean((0, 1)), calibration.std((0, 1))
    model = OscillatorModel()
    A_init = model.dynamics.A.detach().clone()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    val = (oscillator_batch(sensor) - mean) / std
    for epoch in range(EPOCHS):
        for b in range(BATCHES):
            obs = (oscillator_batch(sensor) - mean) / std
            loss = F.mse_loss(model.predict(obs), obs[:, 1:])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {b} mse {loss.item():.4f}")
        with torch.no_grad():
            val_mse = F.mse_loss(model.predict(val), val[:, 1:]).item()
        drift = (model.dynamics.A.detach() - A_init).norm().item()
        print(f"epoch {epoch} val mse {val_mse:.4f} |A - A0| {drift:.4f}")
    print(f"parameter checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
