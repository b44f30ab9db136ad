"""Feed-forward texture synthesis (Ulyanov-style): a small generator maps noise to 24x24
textures and is trained to match the Gram matrices of a reference texture. Following the
classic neural-style recipe, StyleTap modules are inserted into the loss network right
after each convolution; the loss network is a frozen random CNN."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, NOISE_CH = 24, 4


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.reshape(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


class StyleTap(nn.Module):
    """Transparent layer: records the Gram target on the first call, the loss afterwards."""

    def __init__(self):
        super().__init__()
        self.target = None
        self.loss = None

    def forward(self, feat):
        g = gram(feat)
        if self.target is None:
            self.target = g.detach()
        else:
            self.loss = F.mse_loss(g, self.target.expand_as(g))
        return feat


def build_loss_net(channels=(3, 16, 32, 32)):
    layers, taps = [], []
    for i, (cin, cout) in enumerate(zip(channels[:-1], channels[1:])):
        layers.append(nn.Conv2d(cin, cout, 3, padding=1))
        taps.append(StyleTap())
        layers.append(taps[-1])
        layers.append(nn.ReLU())
        if i < len(channels) - 2:
            layers.append(nn.AvgPool2d(2))
    net = nn.Sequential(*layers)
    net.requires_grad_(False)
    return net, taps


class TextureGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(NOISE_CH, 16, 3, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 3, 1), nn.Sigmoid())

    def forward(self, z):
        return self.net(z)


def reference_texture():
    yy, xx = torch.meshgrid(torch.arange(SIZE * 1.0), torch.arange(SIZE * 1.0), indexing="ij")
    stripes = (torch.sin(0.9 * xx + 0.4 * yy) > 0).float()
    return torch.stack([stripes, 0.5 * stripes, 1 - stripes]).unsqueeze(0)


def train(iters=6):
    loss_net, taps = build_loss_net()
    with torch.no_grad():
        loss_net(reference_texture())  # fills each tap's Gram target
    gen = TextureGenerator()
    optimizer = torch.optim.Adam(gen.parameters(), lr=1e-2)
    for it in range(iters):
        z = torch.rand(4, NOISE_CH, SIZE, SIZE)
        loss_net(gen(z))
        style_loss = sum(tap.loss for tap in taps) * 1e3
        optimizer.zero_grad()
        style_loss.backward()
        optimizer.step()
        print(f"iter {it} style loss {style_loss.item():.5f}")


if __name__ == "__main__":
    train()
