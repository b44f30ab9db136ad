"""Physics-informed network for the 1-D Poisson problem u''(x) = -pi^2 sin(pi x) on [0, 1]
with u(0) = u(1) = 0. The residual needs u_x and u_xx, obtained with torch.autograd.grad on
the same forward graph (create_graph=True), and the loss is backwarded through both."""
import math

import torch
import torch.nn as nn


class PINN(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 1))

    def forward(self, x):
        return self.net(x)


def derivatives(model, x):
    u = model(x)
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    return u, u_x, u_xx


def main():
    torch.manual_seed(0)
    model = PINN()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    boundary = torch.tensor([[0.0], [1.0]])
    for step in range(6):
        x = torch.rand(64, 1, requires_grad=True)
        u, u_x, u_xx = derivatives(model, x)
        residual = u_xx + math.pi ** 2 * torch.sin(math.pi * x)
        pde_loss = residual.pow(2).mean()
        bc_loss = model(boundary).pow(2).mean()
        loss = pde_loss + 10.0 * bc_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} pde {pde_loss.item():.6f} bc {bc_loss.item():.6f} "
              f"mean |u_x| {u_x.detach().abs().mean().item():.6f}")
    x_test = torch.linspace(0, 1, 11)[:, None]
    with torch.no_grad():
        err = (model(x_test) - torch.sin(math.pi * x_test)).abs().max().item()
    print(f"max error {err:.6f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
