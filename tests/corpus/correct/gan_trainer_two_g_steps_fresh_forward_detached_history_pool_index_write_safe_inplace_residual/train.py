"""Image GAN in a trainer class that looks risky but is right:
- the discriminator sees fake.detach() plus samples from a history pool filled by index writes
  of detached fakes;
- the generator is stepped twice per batch, each time with a fresh G forward and a fresh D
  forward after the discriminator's optimizer step;
- the discriminator's residual block takes its pre-activation out of place (the shortcut conv
  keeps x), uses an in-place LeakyReLU right after a conv and adds the shortcut in place onto
  an avg-pool output; the generator uses in-place ReLUs after BatchNorm."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NZ, SIZE = 8, 8


def stripe_images(n):
    imgs = -torch.ones(n, 1, SIZE, SIZE)
    cols = torch.randint(0, SIZE - 2, (n,))
    for i in range(n):
        imgs[i, 0, :, cols[i]:cols[i] + 2] = 1.0
    return imgs + 0.05 * torch.randn_like(imgs)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(NZ, 16 * 4 * 4), nn.BatchNorm1d(16 * 4 * 4), nn.ReLU(inplace=True))
        self.up = nn.Sequential(
            nn.ConvTranspose2d(16, 8, 4, 2, 1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.Conv2d(8, 1, 3, padding=1), nn.Tanh(),
        )

    def forward(self, z):
        return self.up(self.fc(z).view(-1, 16, 4, 4))


class PreActDown(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.act = nn.LeakyReLU(0.2, inplace=True)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.conv_sc = nn.Conv2d(cin, cout, 1)

    def forward(self, x):
        sc = F.avg_pool2d(self.conv_sc(x), 2)
        h = self.conv1(F.relu(x))  # out of place: conv_sc saved x
        h = self.conv2(self.act(h))  # in place on a conv output nothing else keeps
        h = F.avg_pool2d(h, 2)
        h += sc
        return h


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 8, 3, padding=1)
        self.block = PreActDown(8, 16)
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        h = self.block(self.stem(x))
        return self.fc(F.leaky_relu(h, 0.2).mean(dim=(2, 3))).squeeze(-1)


class HistoryPool:
    def __init__(self, capacity=32):
        self.images = torch.zeros(capacity, 1, SIZE, SIZE)
        self.filled = 0

    def push_and_sample(self, fake, k):
        fake = fake.detach()
        n = fake.size(0)
        idx = torch.arange(self.filled, self.filled + n) % self.images.size(0)
        self.images[idx] = fake
        self.filled = min(self.filled + n, self.images.size(0))
        pick = torch.randint(0, self.filled, (k,))
        return self.images[pick]


class Trainer:
    def __init__(self, g_steps=2, batch=16):
        self.G, self.D = Generator(), Discriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.pool = HistoryPool()
        self.g_steps, self.batch = g_steps, batch
        self.history = []

    def step(self, real):
        z = torch.randn(self.batch, NZ)
        fake = self.G(z)
        old = self.pool.push_and_sample(fake, self.batch // 2)
        d_in = torch.cat([fake.detach(), old])
        real_logits, fake_logits = self.D(real), self.D(d_in)
        d_loss = (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                  + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()

        for _ in range(self.g_steps):
            logits = self.D(self.G(torch.randn(self.batch, NZ)))
            g_loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
            self.opt_g.zero_grad()
            g_loss.backward()
            self.opt_g.step()
        self.history.append((d_loss.item(), g_loss.item()))

    def fit(self, iterations):
        for it in range(iterations):
            self.step(stripe_images(self.batch))
            d, g = self.history[-1]
            print(f"iter {it} d_loss {d:.6f} g_loss {g:.6f}")


trainer = Trainer()
trainer.fit(5)
print(f"checksum G {sum(p.sum().item() for p in trainer.G.parameters()):.6f}")
print(f"checksum D {sum(p.sum().item() for p in trainer.D.parameters()):.6f}")
