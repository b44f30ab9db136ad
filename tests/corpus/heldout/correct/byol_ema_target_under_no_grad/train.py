"""BYOL-style self-supervised training on synthetic 1-D signals. The online network
(encoder, projector, predictor) is trained; the target network is a copy of encoder and
projector that is never handed to the optimizer, runs under torch.no_grad(), and follows
the online weights by an exponential moving average after every step."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
SIG_LEN, BATCH, TAU = 32, 16, 0.9


def augment(x):
    shift = int(torch.randint(-3, 4, (1,)))
    return torch.roll(x, shift, dims=1) * (0.8 + 0.4 * torch.rand(x.size(0), 1)) + 0.05 * torch.randn_like(x)


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class Online(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = mlp(SIG_LEN, 64, 32)
        self.projector = mlp(32, 64, 16)
        self.predictor = mlp(16, 32, 16)

    def forward(self, x):
        return self.predictor(self.projector(self.encoder(x)))


def regression_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z, dim=-1).mean()


@torch.no_grad()
def ema_update(target, online, tau):
    for t, o in zip(target.parameters(), online.parameters()):
        t.mul_(tau).add_(o, alpha=1 - tau)


online = Online()
target = nn.Sequential(copy.deepcopy(online.encoder), copy.deepcopy(online.projector))
target.requires_grad_(False)
optimizer = torch.optim.SGD(online.parameters(), lr=0.05, momentum=0.9)
freqs = torch.rand(6, 1) * 0.5 + 0.1
t = torch.arange(SIG_LEN, dtype=torch.float32)

for step in range(6):
    x = torch.sin(freqs[torch.randint(0, 6, (BATCH,))] * t)
    v1, v2 = augment(x), augment(x)
    with torch.no_grad():
        z1, z2 = target(v1), target(v2)
    loss = regression_loss(online(v1), z2) + regression_loss(online(v2), z1)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema_update(target, nn.Sequential(online.encoder, online.projector), TAU)
    print(f"step {step} byol loss {loss.item():.5f}")

print(f"online checksum {sum(p.double().sum().item() for p in online.parameters()):.6f}")
print(f"target checksum {sum(p.double().sum().item() for p in target.parameters()):.6f}")
