"""Conditional RealNVP for 4-d sensor readings of one machine: two affine coupling layers and a
learned, context-dependent Gaussian base distribution."""
import torch
import torch.nn as nn
from torch.distributions import Normal

DIM, CTX_DIM, BATCH = 4, 3, 32


class AffineCoupling(nn.Module):
    def __init__(self, flip):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(DIM // 2, 16), nn.Tanh(), nn.Linear(16, DIM))

    def forward(self, x):
        a, b = x.chunk(2, -1)
        if self.flip:
            a, b = b, a
        log_s, t = self.net(a).chunk(2, -1)
        log_s = torch.tanh(log_s)
        b = b * torch.exp(log_s) + t
        out = torch.cat([b, a] if self.flip else [a, b], -1)
        return out, log_s.sum(-1)


class ConditionalFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([AffineCoupling(False), AffineCoupling(True)])
        self.prior_net = nn.Sequential(nn.Linear(CTX_DIM, 16), nn.ReLU(), nn.Linear(16, 2 * DIM))

    def transform(self, x):
        logdet = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet


torch.manual_seed(0)
flow = ConditionalFlow()
optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
machine_context = torch.tensor([[0.5, -1.0, 2.0]])
readings = torch.randn(6 * BATCH, DIM) @ torch.tensor([[1.0, 0.3, 0.0, 0.0], [0.0, 1.0, 0.5, 0.0],
                                                    [0.0, 0.0, 1.0, -0.4], [0.2, 0.0, 0.0, 0.8]]) + 1.5

base_loc, base_log_scale = flow.prior_net(machine_context).chunk(2, -1)
for it in range(6):
    x = readings[it * BATCH:(it + 1) * BATCH]
    z, logdet = flow.transform(x)
    log_prob = Normal(base_loc, base_log_scale.exp()).log_prob(z).sum(-1) + logdet
    nll = -log_prob.mean()
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    print(f"iter {it}: nll {nll.item():.4f}")
