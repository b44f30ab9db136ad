"""RealNVP building blocks: ActNorm with data-dependent init and affine coupling."""
import torch
import torch.nn as nn


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))
        self.register_buffer("initialized", torch.tensor(False))

    def forward(self, x):
        if not self.initialized:
            with torch.no_grad():   # data-dependent init writes into the parameters
                self.loc.copy_(-x.mean(0))
                self.log_scale.copy_(-torch.log(x.std(0) + 1e-6))
                self.initialized.fill_(True)
        y = (x + self.loc) * torch.exp(self.log_scale)
        return y, self.log_scale.sum().expand(x.shape[0])


class AffineCoupling(nn.Module):
    def __init__(self, dim, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 2 * dim))

    def forward(self, x):
        s, t = self.net(x * self.mask).chunk(2, dim=1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        y = x * self.mask + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)


class RealNVP(nn.Module):
    def __init__(self, dim=2, n_couplings=4):
        super().__init__()
        layers = [ActNorm(dim)]
        for i in range(n_couplings):
            mask = torch.tensor([float((i + j) % 2) for j in range(dim)])
            layers.append(AffineCoupling(dim, mask))
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det

    def log_prob(self, x):
        z, log_det = self(x)
        base = -0.5 * (z ** 2).sum(1) - 0.5 * z.shape[1] * torch.log(torch.tensor(2 * torch.pi))
        return base + log_det
