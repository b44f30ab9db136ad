"""Train the arbitrary style transfer network with perceptual losses from a fixed
feature extractor: content loss on its second block, Gram-matrix style loss on both."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import StyleTransferNet


class LossNet(nn.Module):
    """Stand-in for the frozen VGG used for perceptual losses."""

    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        f1 = self.block1(x)
        return [f1, self.block2(f1)]


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.flatten(2)
    return f @ f.transpose(1, 2) / (h * w)


def images(n, g, textured=False):
    base = torch.rand(n, 3, 1, 1, generator=g).expand(n, 3, 16, 16).clone()
    if textured:
        stripes = torch.sin(torch.arange(16.0) * torch.rand(n, 1, 1, 1, generator=g) * 3)
        base = base * (0.6 + 0.4 * stripes)
    return base + 0.05 * torch.randn(n, 3, 16, 16, generator=g)


def main(steps=6, style_weight=5.0):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    net = StyleTransferNet()
    loss_net = LossNet().eval().requires_grad_(False)
    optimizer = torch.optim.Adam(net.parameters(), lr=2e-3)
    for step in range(steps):
        content, style = images(8, g), images(8, g, textured=True)
        out = net(content, style)
        out_feats, content_feats, style_feats = loss_net(out), loss_net(content), loss_net(style)
        content_loss = F.mse_loss(out_feats[1], content_feats[1])
        style_loss = sum(F.mse_loss(gram(o), gram(s)) for o, s in zip(out_feats, style_feats))
        loss = content_loss + style_weight * style_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} content {content_loss.item():.3e} style {style_loss.item():.3e}")
    with torch.no_grad():
        net.interpolate(net.predictor(images(8, g, textured=True)), alpha=0.5)
        print("interpolated output mean", round(net(images(8, g)).mean().item(), 4))


if __name__ == "__main__":
    main()
