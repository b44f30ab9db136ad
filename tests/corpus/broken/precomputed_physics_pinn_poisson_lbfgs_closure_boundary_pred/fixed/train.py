"""Physics-informed network for the 1-D Poisson problem
    u''(x) = -pi^2 sin(pi x),  u(0) = u(1) = 0   (exact: u = sin(pi x))
fitted with L-BFGS on fresh collocation points every outer iteration."""
import math

import torch
import torch.nn as nn


def pde_residual(net, x):
    x = x.clone().requires_grad_(True)
    u = net(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
    return d2u + math.pi ** 2 * torch.sin(math.pi * x)


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
    optimizer = torch.optim.LBFGS(net.parameters(), lr=1.0, max_iter=5, history_size=10, line_search_fn="strong_wolfe")
    x_boundary = torch.tensor([[0.0], [1.0]])
    bc_weight = 10.0

    for outer in range(4):
        x_coll = torch.rand(32, 1)

        def closure():
            optimizer.zero_grad()
            u_boundary = net(x_boundary)
            residual = pde_residual(net, x_coll)
            loss = residual.pow(2).mean() + bc_weight * u_boundary.pow(2).mean()
            loss.backward()
            return loss

        loss = optimizer.step(closure)
        with torch.no_grad():
            x_test = torch.linspace(0, 1, 11).unsqueeze(1)
            err = (net(x_test) - torch.sin(math.pi * x_test)).abs().max().item()
        print(f"outer {outer} loss {loss.item():.5f} max error {err:.4f}")


if __name__ == "__main__":
    main()
