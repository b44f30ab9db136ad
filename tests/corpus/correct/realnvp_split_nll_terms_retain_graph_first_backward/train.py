"""RealNVP-style flow on a 2-D crescent data set. To see which part of the objective drives
the coupling layers, the negative log-likelihood is split into its base-density term and
its log-determinant term: the first is backwarded with retain_graph=True (the graph is
needed again), its gradient norm is logged, then the second term is backwarded through
the same graph, which frees it, before a single optimizer step."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
DIM, HID, N_COUPLINGS, BATCH, STEPS = 2, 32, 4, 128, 8


class AffineCoupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(DIM, HID), nn.Tanh(), nn.Linear(HID, 2 * DIM))

    def forward(self, x):
        s, t = self.net(x * self.mask).chunk(2, dim=1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        z = x * self.mask + (1 - self.mask) * (x * s.exp() + t)
        return z, s.sum(dim=1)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])]
        self.couplings = nn.ModuleList(AffineCoupling(masks[k % 2]) for k in range(N_COUPLINGS))

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.couplings:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det


def crescent(n):
    theta = math.pi * torch.rand(n)
    pts = torch.stack([theta.cos(), theta.sin()], dim=1)
    return pts + 0.08 * torch.randn(n, 2)


def grad_norm(params):
    return torch.sqrt(sum((p.grad ** 2).sum() for p in params if p.grad is not None)).item()


flow = Flow()
params = list(flow.parameters())
optimizer = torch.optim.Adam(params, lr=3e-3)
history = []
for step in range(STEPS):
    z, log_det = flow(crescent(BATCH))
    base_nll = (0.5 * (z ** 2).sum(dim=1) + math.log(2 * math.pi)).mean()
    logdet_term = -log_det.mean()
    optimizer.zero_grad()
    base_nll.backward(retain_graph=True)
    base_norm = grad_norm(params)
    logdet_term.backward()
    total_norm = grad_norm(params)
    optimizer.step()
    nll = base_nll.item() + logdet_term.item()
    history.append(nll)
    print(f"step {step} nll {nll:.4f} |grad base| {base_norm:.4f} |grad total| {total_norm:.4f}")

print(f"best nll {min(history):.4f}")
checksum = sum(p.detach().abs().sum().item() for p in params)
print(f"parameter checksum {checksum:.4f}")
