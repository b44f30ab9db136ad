"""Gatys-style neural style transfer on a tiny 16x16 RGB canvas. A frozen, randomly
initialised conv stack stands in for VGG (no downloads); the canvas pixels themselves are
optimised with L-BFGS, starting from the content image."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE = 16
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


class FeatureTaps(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU())

    def forward(self, x):
        f1 = self.block1((x - MEAN) / STD)
        return f1, self.block2(f1)


def gram(feat):
    b, c, h, w = feat.shape
    flat = feat.view(b, c, h * w)
    return flat @ flat.transpose(1, 2) / (c * h * w)


yy, xx = torch.meshgrid(torch.linspace(0, 1, SIZE), torch.linspace(0, 1, SIZE), indexing="ij")
content = torch.stack([xx, yy, 1 - xx * yy]).unsqueeze(0)
style = (0.5 + 0.5 * torch.sin(12 * xx + 6 * yy)).expand(1, 3, SIZE, SIZE) * torch.tensor(
    [0.9, 0.4, 0.2]).view(1, 3, 1, 1)

net = FeatureTaps().eval().requires_grad_(False)
with torch.no_grad():
    content_target = net(content)[1]
    style_targets = [gram(f) for f in net(style)]

canvas = content.clone().requires_grad_(True)
optimizer = torch.optim.LBFGS([canvas], lr=0.5, max_iter=5)
style_weight, content_weight = 1e4, 1.0
history = []


def closure():
    optimizer.zero_grad()
    img = canvas.clamp(0, 1)  # keep the pixels in the displayable range
    f1, f2 = net(img)
    style_loss = sum(F.mse_loss(gram(f), t) for f, t in zip((f1, f2), style_targets))
    content_loss = F.mse_loss(f2, content_target)
    loss = style_weight * style_loss + content_weight * content_loss
    loss.backward()
    history.append((style_loss.item(), content_loss.item()))
    return loss


for it in range(4):
    optimizer.step(closure)
    s, c = history[-1]
    print(f"iter {it} style {s:.6f} content {c:.6f}")

with torch.no_grad():
    canvas.clamp_(0, 1)
print(f"canvas mean {canvas.mean().item():.4f}")
