"""Generator and a spectrally normalised discriminator for a 2-D toy GAN. SNLinear keeps
the power-iteration vectors u, v as buffers and refreshes them on every forward call."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SNLinear(nn.Module):
    def __init__(self, in_features, out_features, eps=1e-12):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.3)
        self.bias = nn.Parameter(torch.zeros(out_features))
        self.eps = eps
        self.register_buffer("u", F.normalize(torch.randn(out_features), dim=0))
        self.register_buffer("v", F.normalize(torch.randn(in_features), dim=0))

    def forward(self, x):
        if self.training:
            with torch.no_grad():  # one power-iteration step per call
                self.v = F.normalize(self.weight.t() @ self.u, dim=0, eps=self.eps)
                self.u = F.normalize(self.weight @ self.v, dim=0, eps=self.eps)
        sigma = torch.dot(self.u, torch.mv(self.weight, self.v))
        return F.linear(x, self.weight / sigma, self.bias)


class Discriminator(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            SNLinear(2, hidden), nn.LeakyReLU(0.2),
            SNLinear(hidden, hidden), nn.LeakyReLU(0.2),
            SNLinear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_generator(z_dim=8, hidden=64):
    return nn.Sequential(
        nn.Linear(z_dim, hidden), nn.ReLU(),
        nn.Linear(hidden, hidden), nn.ReLU(),
        nn.Linear(hidden, 2),
    )
