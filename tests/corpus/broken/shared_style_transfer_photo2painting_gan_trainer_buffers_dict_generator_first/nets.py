"""Photo-to-painting translator (a small residual encoder-decoder) and a PatchGAN critic."""
import torch
import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.InstanceNorm2d(ch),
                                  nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1),
                                  nn.InstanceNorm2d(ch))

    def forward(self, x):
        return x + self.body(x)


class Translator(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(ch, 2 * ch, 4, stride=2, padding=1), nn.ReLU())
        self.res = ResBlock(2 * ch)
        self.up = nn.Sequential(nn.ConvTranspose2d(2 * ch, ch, 4, stride=2, padding=1),
                                nn.ReLU(), nn.Conv2d(ch, 3, 3, padding=1), nn.Tanh())

    def forward(self, photo):
        return self.up(self.res(self.down(photo)))


class PatchCritic(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(ch, 2 * ch, 4, stride=2, padding=1),
                                 nn.LeakyReLU(0.2), nn.Conv2d(2 * ch, 1, 3, padding=1))

    def forward(self, img):
        return self.net(img)
