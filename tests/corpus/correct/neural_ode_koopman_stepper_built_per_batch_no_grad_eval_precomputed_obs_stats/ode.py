"""Split-step latent integrator: the linear part of dz/dt = A z + f(z) is advanced exactly
with the one-step flow matrix exp(A dt), the nonlinear part with an Euler step."""
import torch


def make_stepper(dynamics, dt):
    """Builds step(z) for the current value of the generator A. The flow matrix is computed
    here once and shared by every step of a rollout, so build a fresh stepper whenever A may
    have changed (after every optimizer step)."""
    Phi = torch.linalg.matrix_exp(dynamics.A * dt)

    def step(z):
        z = z @ Phi.T
        return z + dt * dynamics.correction(z)

    return step


def integrate(step, z0, n_steps):
    zs, z = [], z0
    for _ in range(n_steps):
        z = step(z)
        zs.append(z)
    return torch.stack(zs, 1)
