"""Fast (feed-forward) style transfer with a frozen perceptual loss network.

The system owns both the image transformation network and the VGG-like loss network.
The loss network is frozen with requires_grad_(False) and kept in eval mode; the
optimizer is built only over parameters that still require grad. The style Gram targets
are computed once, under no_grad, and the content targets per batch, also under no_grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(9)
STYLE_WEIGHT, CONTENT_WEIGHT = 5.0, 1.0


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.flatten(2)
    return f @ f.transpose(1, 2) / (c * h * w)


class LossNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.slice1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.slice2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())

    def forward(self, x):
        f1 = self.slice1(x)
        return f1, self.slice2(f1)


class StyleSystem(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
            nn.Conv2d(16, 3, 3, padding=1), nn.Sigmoid())
        self.loss_net = LossNet().eval()
        self.loss_net.requires_grad_(False)

    def train(self, mode=True):
        super().train(mode)
        self.loss_net.eval()
        return self


system = StyleSystem().train()
optimizer = torch.optim.Adam([p for p in system.parameters() if p.requires_grad], lr=5e-3)
style_image = torch.rand(1, 3, 16, 16)
with torch.no_grad():
    style_grams = [gram(f) for f in system.loss_net(style_image)]

for step in range(6):
    content = torch.rand(4, 3, 16, 16)
    stylized = system.transformer(content)
    feats = system.loss_net(stylized)
    with torch.no_grad():
        content_feat = system.loss_net(content)[1]
    content_loss = F.mse_loss(feats[1], content_feat)
    style_loss = sum(F.mse_loss(gram(f), g.expand(f.shape[0], -1, -1)) for f, g in zip(feats, style_grams))
    loss = CONTENT_WEIGHT * content_loss + STYLE_WEIGHT * 1e3 * style_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} content {content_loss.item():.6f} style {style_loss.item():.6e}")

frozen = sum(p.sum().item() for p in system.loss_net.parameters())
trained = sum(p.sum().item() for p in system.transformer.parameters())
print(f"loss-net checksum {frozen:.6f} transformer checksum {trained:.6f}")
