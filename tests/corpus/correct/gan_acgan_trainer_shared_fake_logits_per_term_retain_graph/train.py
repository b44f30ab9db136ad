"""AC-GAN on 8x8 glyphs (four classes: bar, column, diagonal, box).

The discriminator has two heads: real/fake and class. The generator step runs ONE
discriminator forward on the fake batch and backpropagates the two heads' losses one
after the other (retain_graph on the first) so that the per-term gradient norms of the
generator can be logged before the single optimizer step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, LATENT, BATCH, STEPS = 4, 12, 16, 6


def make_glyphs(labels):
    imgs = torch.full((len(labels), 1, 8, 8), -1.0)
    for i, k in enumerate(labels.tolist()):
        if k == 0:
            imgs[i, 0, 3:5, :] = 1.0
        elif k == 1:
            imgs[i, 0, :, 3:5] = 1.0
        elif k == 2:
            imgs[i, 0].fill_diagonal_(1.0)
        else:
            imgs[i, 0, 1:7, 1:7] = 1.0
            imgs[i, 0, 2:6, 2:6] = -1.0
    return imgs + 0.05 * torch.randn_like(imgs)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_CLASSES, LATENT)
        self.net = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, 64), nn.Tanh())

    def forward(self, z, y):
        return self.net(z * self.embed(y)).view(-1, 1, 8, 8)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(8, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Flatten())
        self.adv_head = nn.Linear(16 * 16, 1)
        self.cls_head = nn.Linear(16 * 16, N_CLASSES)

    def forward(self, x):
        h = self.trunk(x)
        return self.adv_head(h).squeeze(1), self.cls_head(h)


def grad_norm(module):
    return torch.sqrt(sum(p.grad.pow(2).sum() for p in module.parameters() if p.grad is not None))


class ACGANTrainer:
    def __init__(self, seed=3):
        torch.manual_seed(seed)
        self.G, self.D = Generator(), Discriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.log = []

    def d_step(self, real, labels):
        z = torch.randn(BATCH, LATENT)
        fake_labels = torch.randint(0, N_CLASSES, (BATCH,))
        with torch.no_grad():
            fake = self.G(z, fake_labels)
        adv_r, cls_r = self.D(real)
        adv_f, cls_f = self.D(fake)
        loss = (F.binary_cross_entropy_with_logits(adv_r, torch.ones_like(adv_r))
                + F.binary_cross_entropy_with_logits(adv_f, torch.zeros_like(adv_f))
                + F.cross_entropy(cls_r, labels) + F.cross_entropy(cls_f, fake_labels))
        self.opt_d.zero_grad()
        loss.backward()
        self.opt_d.step()
        return loss.item()

    def g_step(self):
        z = torch.randn(BATCH, LATENT)
        y = torch.randint(0, N_CLASSES, (BATCH,))
        adv, cls = self.D(self.G(z, y))
        adv_loss = F.binary_cross_entropy_with_logits(adv, torch.ones_like(adv))
        cls_loss = F.cross_entropy(cls, y)
        self.opt_g.zero_grad()
        adv_loss.backward(retain_graph=True)
        adv_norm = grad_norm(self.G).item()
        cls_loss.backward()
        total_norm = grad_norm(self.G).item()
        self.opt_g.step()
        return adv_loss.item(), cls_loss.item(), adv_norm, total_norm

    def fit(self, steps):
        for step in range(steps):
            labels = torch.randint(0, N_CLASSES, (BATCH,))
            d_loss = self.d_step(make_glyphs(labels), labels)
            adv, cls, adv_norm, total_norm = self.g_step()
            self.log.append((d_loss, adv, cls))
            print(f"step {step} d {d_loss:.4f} g_adv {adv:.4f} g_cls {cls:.4f} "
                  f"|grad adv| {adv_norm:.4f} |grad total| {total_norm:.4f}")


if __name__ == "__main__":
    trainer = ACGANTrainer()
    trainer.fit(STEPS)
    checksum = sum(p.sum().item() for m in (trainer.G, trainer.D) for p in m.parameters())
    print(f"checksum {checksum:.4f}")
