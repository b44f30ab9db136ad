"""SimCLR-style pretraining on synthetic texture patches. The backbone's representation h is
kept linear (it is what the linear probe reads later); the projector rectifies it before its
first layer. A small penalty keeps the representation norm near a target so the NT-Xent
temperature stays meaningful."""
import torch
import torch.nn as nn
import torch.nn.functional as F

REPR, PROJ, TARGET_NORM = 64, 32, 8.0


def projection_head(in_dim, hidden, out_dim):
    return nn.Sequential(
        nn.ReLU(),
        nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(inplace=True),
        nn.Linear(hidden, out_dim),
    )


class SimCLR(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, REPR))
        self.projector = projection_head(REPR, 64, PROJ)

    def forward(self, x):
        h = self.backbone(x)
        norm_penalty = (h.norm(dim=1) - TARGET_NORM).pow(2).mean()
        z = self.projector(h)
        return z, norm_penalty


def nt_xent(z1, z2, temperature=0.2):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    n = z1.size(0)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def textures(n, gen, size=16):
    freq = torch.randint(1, 5, (n, 1, 1), generator=gen).float()
    angle = torch.rand(n, 1, 1, generator=gen) * 3.1416
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(),
                            indexing="ij")
    wave = torch.sin(freq * (xx * torch.cos(angle) + yy * torch.sin(angle)) / 2)
    return wave.unsqueeze(1)


def augment(x, gen):
    flip = torch.rand(x.size(0), 1, 1, 1, generator=gen) < 0.5
    x = torch.where(flip, x.flip(-1), x)
    gain = 0.7 + 0.6 * torch.rand(x.size(0), 1, 1, 1, generator=gen)
    return gain * x + 0.2 * torch.randn(x.shape, generator=gen)


def pretrain(steps=5, batch=32, penalty_weight=0.01):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(12)
    model = SimCLR()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    for step in range(steps):
        images = textures(batch, gen)
        z1, pen1 = model(augment(images, gen))
        z2, pen2 = model(augment(images, gen))
        loss = nt_xent(z1, z2) + penalty_weight * (pen1 + pen2) / 2
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} norm penalty {pen1.item():.3f}")
    return model


if __name__ == "__main__":
    pretrain()
