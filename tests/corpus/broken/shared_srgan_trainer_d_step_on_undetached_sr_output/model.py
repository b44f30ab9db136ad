"""Tiny SRGAN pieces: a x2 sub-pixel generator and a patch discriminator."""
import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.PReLU(ch),
                                  nn.Conv2d(ch, ch, 3, padding=1))

    def forward(self, x):
        return x + self.body(x)


class Generator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.head = nn.Sequential(nn.Conv2d(3, ch, 5, padding=2), nn.PReLU(ch))
        self.res = ResidualBlock(ch)
        self.up = nn.Sequential(nn.Conv2d(ch, ch * 4, 3, padding=1), nn.PixelShuffle(2),
                                nn.PReLU(ch))
        self.tail = nn.Conv2d(ch, 3, 5, padding=2)

    def forward(self, lr):
        h = self.head(lr)
        h = self.res(h)
        return self.tail(self.up(h)).tanh()


class Discriminator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(ch, 2 * ch, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
        )
        self.classifier = nn.Linear(2 * ch * 4 * 4, 1)

    def forward(self, img):
        return self.classifier(self.features(img).flatten(1)).squeeze(1)
