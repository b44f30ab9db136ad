"""Heat-equation residual u_t - alpha * u_xx for a network u(x, t)."""
import torch


def heat_residual(u, xt, alpha):
    grads = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
    u_x, u_t = grads[:, 0:1], grads[:, 1:2]
    u_xx = torch.autograd.grad(u_x.sum(), xt, create_graph=True)[0][:, 0:1]
    return u_t - alpha * u_xx
