import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, ch=16, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, ch, 3, padding=1)
        self.body = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.PReLU(ch), nn.Conv2d(ch, ch, 3, padding=1))
        self.up = nn.Sequential(nn.Conv2d(ch, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale))

    def forward(self, lr):
        h = self.head(lr)
        h = h + self.body(h)
        return torch.tanh(self.up(h))


class Discriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(ch, 2 * ch, 3, stride=2, padding=1),
            nn.BatchNorm2d(2 * ch),
            nn.LeakyReLU(0.2),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Conv2d(2 * ch, 1, 1)

    def forward(self, x):
        return torch.sigmoid(self.classifier(self.pool(self.features(x)))).flatten()


class SRGANTrainer:
    def __init__(self, adv_weight=1e-2):
        torch.manual_seed(0)
        self.netG, self.netD = Generator(), Discriminator()
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=1e-3)
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=1e-3)
        self.adv_weight = adv_weight
        self.gen = torch.Generator().manual_seed(4)

    def batch(self, n=4, size=16):
        hr = torch.rand(n, 3, size, size, generator=self.gen) * 2 - 1
        lr = F.avg_pool2d(hr, 2)
        return lr, hr

    def train_step(self, lr_img, hr_img):
        fake_img = self.netG(lr_img)
        real_out = self.netD(hr_img).mean()
        fake_out = self.netD(fake_img).mean()

        # (1) update D: maximize D(x) - D(G(z))
        self.netD.zero_grad()
        d_loss = 1 - real_out + fake_out
        d_loss.backward(retain_graph=True)
        self.optD.step()

        # (2) update G: image loss + adversarial loss
        self.netG.zero_grad()
        fake_out = self.netD(fake_img).mean()  # D changed: score the fake again
        g_loss = F.mse_loss(fake_img, hr_img) + self.adv_weight * (1 - fake_out)
        g_loss.backward()
        self.optG.step()
        return d_loss.item(), g_loss.item()

    def fit(self, steps=4):
        for step in range(steps):
            d_loss, g_loss = self.train_step(*self.batch())
            print(f"step {step} d {d_loss:.4f} g {g_loss:.4f}")


if __name__ == "__main__":
    SRGANTrainer().fit()
