"""Gatys-style neural style transfer with L-BFGS on a 16x16 image, using a small frozen
random conv net as the feature extractor."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 3, padding=1)])
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        feats = []
        for conv in self.layers:
            x = F.relu(conv(x))
            feats.append(x)
        return feats


def run_style_transfer(outer_steps=2, content_weight=1.0, style_weight=1e3):
    torch.manual_seed(0)
    net = Features().eval()
    content = torch.rand(1, 3, 16, 16)
    style = torch.sin(torch.linspace(0, 12, 16)).view(1, 1, 1, 16).expand(1, 3, 16, 16) * 0.5 + 0.5
    content_target = net(content)[-1]
    style_targets = [gram(f) for f in net(style)]

    img = content.clone().requires_grad_(True)
    optimizer = torch.optim.LBFGS([img], lr=0.5, max_iter=4)
    for step in range(outer_steps):
        content_loss = F.mse_loss(net(img)[-1], content_target)

        def closure():
            optimizer.zero_grad()
            style_loss = sum(F.mse_loss(gram(f), g) for f, g in zip(net(img), style_targets))
            total = content_weight * content_loss + style_weight * style_loss
            total.backward()
            return total

        loss = optimizer.step(closure)
        with torch.no_grad():
            img.clamp_(0, 1)
        print(f"outer step {step}: loss {loss.item():.5f}")
    return img


if __name__ == "__main__":
    run_style_transfer()
