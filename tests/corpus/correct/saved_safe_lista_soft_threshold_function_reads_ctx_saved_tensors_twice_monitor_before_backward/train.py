"""LISTA (learned ISTA) for sparse signal recovery with a custom soft-threshold autograd.Function.
The backward reads ctx.saved_tensors twice (allowed: still inside backward), and the monitor reads
saved tensors before loss.backward() frees them."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftThreshold(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, theta):
        ctx.save_for_backward(x, theta)
        return torch.sign(x) * F.relu(x.abs() - theta)

    @staticmethod
    def backward(ctx, grad_out):
        active = SoftThreshold._active(ctx)
        x, _ = ctx.saved_tensors
        grad_x = grad_out * active
        grad_theta = -(grad_out * torch.sign(x) * active).sum(dim=0)
        return grad_x, grad_theta

    @staticmethod
    def _active(ctx):
        x, theta = ctx.saved_tensors
        return (x.abs() > theta).to(x.dtype)


class LISTA(nn.Module):
    def __init__(self, m, n, layers=3):
        super().__init__()
        self.We = nn.Linear(m, n, bias=False)
        self.S = nn.ModuleList([nn.Linear(n, n, bias=False) for _ in range(layers)])
        self.theta = nn.Parameter(torch.full((layers, n), 0.1))

    def forward(self, y):
        b = self.We(y)
        z = SoftThreshold.apply(b, self.theta[0])
        for k, S in enumerate(self.S):
            z = SoftThreshold.apply(b + S(z), self.theta[k])
        return z


def main():
    torch.manual_seed(6)
    gen = torch.Generator().manual_seed(6)
    m, n = 12, 24
    A = torch.randn(m, n, generator=gen) / m ** 0.5
    model = LISTA(m, n)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(6):
        x_true = torch.randn(32, n, generator=gen) * (torch.rand(32, n, generator=gen) < 0.15)
        y = x_true @ A.t()
        z = model(y)
        pre_threshold, _ = z.grad_fn.saved_tensors       # read before backward: still saved
        active = (pre_threshold.abs() > model.theta[-1].detach()).float().mean().item()
        loss = F.mse_loss(z, x_true)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: mse={loss.item():.5f} active={active:.3f}")
    print(f"param checksum: {sum(p.double().sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
