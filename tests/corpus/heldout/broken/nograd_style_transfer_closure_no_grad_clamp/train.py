"""Gatys-style neural style transfer with L-BFGS on a tiny random conv feature extractor.
The canvas is clamped to [0, 1] under no_grad at the start of every closure call."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, STYLE_WEIGHT = 24, 1e6


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2)),
            nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU()),
        ])

    def forward(self, img):
        feats = []
        for block in self.blocks:
            img = block(img)
            feats.append(img)
        return feats


def gram(f):
    b, c, h, w = f.shape
    flat = f.view(b, c, h * w)
    return flat @ flat.transpose(1, 2) / (c * h * w)


def run_style_transfer(extractor, content_img, style_img, steps=4):
    with torch.no_grad():
        content_target = extractor(content_img)[-1]
        style_grams = [gram(f) for f in extractor(style_img)]
    canvas = content_img.clone().requires_grad_(True)
    optimizer = torch.optim.LBFGS([canvas], lr=0.5, max_iter=5)

    def closure():
        optimizer.zero_grad()
        with torch.no_grad():
            canvas.clamp_(0, 1)
            feats = extractor(canvas)
        content_loss = F.mse_loss(feats[-1], content_target)
        style_loss = sum(F.mse_loss(gram(f), g) for f, g in zip(feats, style_grams))
        loss = content_loss + STYLE_WEIGHT * style_loss
        loss.backward()
        return loss

    for step in range(steps):
        loss = optimizer.step(closure)
        print(f"step {step} loss {loss.item():.6f}")
    return canvas.detach().clamp(0, 1)


extractor = FeatureExtractor().eval().requires_grad_(False)
content = torch.rand(1, 3, SIZE, SIZE)
style = torch.sin(torch.linspace(0, 12, SIZE))[None, None, :, None].expand(1, 3, SIZE, SIZE) * 0.5 + 0.5
result = run_style_transfer(extractor, content, style)
print(f"result mean {result.mean().item():.4f}")
