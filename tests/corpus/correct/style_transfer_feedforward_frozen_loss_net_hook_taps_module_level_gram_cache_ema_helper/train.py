"""Johnson-style fast style transfer: a transformation network is trained to restyle content
images in one pass, with perceptual losses from a frozen loss network. An EMA copy of the
transformation network is kept for the exported model."""
import copy

import torch
import torch.nn as nn

from losses import LossNet, perceptual_loss, style_targets

SIZE = 16


class TransformNet(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.InstanceNorm2d(ch), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.InstanceNorm2d(ch), nn.ReLU(),
                                 nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.net(x) + torch.logit(x.clamp(0.01, 0.99)))


class EMA:
    def __init__(self, model, decay=0.95):
        self.shadow = copy.deepcopy(model).requires_grad_(False)
        self.decay = decay

    @torch.no_grad()
    def step(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p, alpha=1 - self.decay)


def content_batch(n, gen):
    ys, xs = torch.meshgrid(torch.linspace(0, 1, SIZE), torch.linspace(0, 1, SIZE), indexing="ij")
    tint = torch.rand(n, 3, 1, 1, generator=gen)
    return (0.2 + 0.6 * tint * (xs + ys) / 2).expand(n, 3, SIZE, SIZE).contiguous()


def style_image():
    xs = torch.linspace(0, 12.56, SIZE)
    waves = torch.sin(xs).view(1, 1, 1, SIZE) * torch.cos(xs).view(1, 1, SIZE, 1)
    return (0.5 + 0.5 * waves * torch.tensor([1.0, 0.3, -0.6]).view(1, 3, 1, 1))


def main(steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(8)
    loss_net, model = LossNet(), TransformNet()
    ema = EMA(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(steps):
        content = content_batch(4, gen)
        grams = style_targets(loss_net, "waves", style_image())
        stylized = model(content)
        c, s, tv = perceptual_loss(loss_net, stylized, content, grams)
        loss = c + s + tv
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.step(model)
        print(f"step {step} content {c.item():.5f} style {s.item():.5f} tv {tv.item():.5f}")
    with torch.no_grad():
        preview = ema.shadow(content_batch(2, gen))
    checksum = sum(p.double().abs().sum().item() for p in ema.shadow.parameters())
    print(f"preview mean {preview.mean().item():.6f} ema checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
