"""Non-saturating SN-GAN on a 1-D mixture of Gaussians with a hand-written spectral norm. The
power-iteration buffers are refreshed in place on every discriminator call, and sigma is
computed from clones of them, so two discriminator calls in one loss are safe."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectralLinear(nn.Linear):
    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)
        self.register_buffer("u", F.normalize(torch.randn(out_features), dim=0))
        self.register_buffer("v", F.normalize(torch.randn(in_features), dim=0))

    def normalized_weight(self):
        if self.training:
            with torch.no_grad():
                self.v.copy_(F.normalize(self.weight.t() @ self.u, dim=0))
                self.u.copy_(F.normalize(self.weight @ self.v, dim=0))
        u, v = self.u.clone(), self.v.clone()  # later calls update the buffers in place
        return self.weight / torch.dot(u, self.weight @ v)

    def forward(self, x):
        return F.linear(x, self.normalized_weight(), self.bias)


class GANTrainer:
    def __init__(self, z_dim=4, hidden=32):
        self.z_dim = z_dim
        self.G = nn.Sequential(nn.Linear(z_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.D = nn.Sequential(SpectralLinear(1, hidden), nn.LeakyReLU(0.1),
                               SpectralLinear(hidden, hidden), nn.LeakyReLU(0.1),
                               SpectralLinear(hidden, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.0, 0.9))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.0, 0.9))

    def real_batch(self, n):
        centers = torch.tensor([-2.0, 0.5, 3.0])
        return (centers[torch.randint(0, 3, (n,))] + 0.2 * torch.randn(n)).unsqueeze(1)

    def step(self, n=64):
        real = self.real_batch(n)
        fake = self.G(torch.randn(n, self.z_dim))
        d_loss = F.softplus(-self.D(real)).mean() + F.softplus(self.D(fake.detach())).mean()
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()

        g_loss = F.softplus(-self.D(fake)).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return d_loss.item(), g_loss.item()


torch.manual_seed(0)
trainer = GANTrainer()
for it in range(6):
    d, g = trainer.step()
    print(f"iter {it} d_loss {d:.4f} g {g:.4f}")
sigmas = [torch.dot(m.u, m.weight @ m.v).item() for m in trainer.D if isinstance(m, SpectralLinear)]
print("sigma estimates " + " ".join(f"{s:.4f}" for s in sigmas))
print(f"checksum G {sum(p.sum().item() for p in trainer.G.parameters()):.6f}")
print(f"checksum D {sum(p.sum().item() for p in trainer.D.parameters()):.6f}")
