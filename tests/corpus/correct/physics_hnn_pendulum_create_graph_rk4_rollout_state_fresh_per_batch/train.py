"""Learn the Hamiltonian of an ideal pendulum from short observed trajectories.

Each batch holds fresh initial states (q, p); the model is rolled out for a few RK4 steps
from those states and compared with the true trajectory. Every derivative of H is taken
with create_graph=True so the rollout loss can be backpropagated into H's parameters.
"""
import torch

from model import HNN

DT, STEPS, BATCH = 0.1, 2, 16


def pendulum_derivative(z):
    q, p = z[:, 0], z[:, 1]
    return torch.stack([p, -torch.sin(q)], dim=1)


def true_rollout(z0, n_steps, dt, substeps=10):
    z, traj, h = z0, [], dt / substeps
    for _ in range(n_steps):
        for _ in range(substeps):
            k1 = pendulum_derivative(z)
            k2 = pendulum_derivative(z + 0.5 * h * k1)
            k3 = pendulum_derivative(z + 0.5 * h * k2)
            k4 = pendulum_derivative(z + h * k3)
            z = z + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj.append(z)
    return torch.stack(traj)


def train(model, optimizer, n_batches, generator):
    for step in range(n_batches):
        z0 = torch.stack([torch.empty(BATCH).uniform_(-2, 2, generator=generator),
                          torch.empty(BATCH).uniform_(-1, 1, generator=generator)], dim=1)
        target = true_rollout(z0, STEPS, DT)
        pred = model.rollout(z0.clone().requires_grad_(True), STEPS, DT)
        loss = (pred - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"batch {step} rollout mse {loss.item():.6f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = HNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    train(model, optimizer, 4, gen)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
