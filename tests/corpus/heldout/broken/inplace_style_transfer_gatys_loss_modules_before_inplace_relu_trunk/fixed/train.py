"""Gatys et al. neural style transfer, optimising the pixels of the output image. The loss
model is rebuilt from a VGG-like feature trunk by walking its layers and inserting a
StyleLoss/ContentLoss module right after the chosen convolutions, as in the PyTorch tutorial.
The trunk itself is a frozen random-feature stand-in for VGG (no downloads)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE = 32
STYLE_LAYERS, CONTENT_LAYERS = ("conv_1", "conv_2", "conv_3"), ("conv_3",)


def make_trunk():
    layers, in_ch = [], 3
    for out_ch in (8, 16, 16):
        layers += [nn.Conv2d(in_ch, out_ch, 3, padding=1), nn.ReLU(inplace=False)]
        in_ch = out_ch
    return nn.Sequential(*layers).requires_grad_(False)


def gram(feats):
    b, c, h, w = feats.shape
    flat = feats.view(b * c, h * w)
    return flat @ flat.t() / (b * c * h * w)


class StyleLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = gram(target).detach()
        self.loss = None

    def forward(self, feats):
        self.loss = F.mse_loss(gram(feats), self.target)
        return feats


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()
        self.loss = None

    def forward(self, feats):
        self.loss = F.mse_loss(feats, self.target)
        return feats


def build_style_model(trunk, style_img, content_img):
    model, style_losses, content_losses = nn.Sequential(), [], []
    idx = 0
    for layer in trunk.children():
        if isinstance(layer, nn.Conv2d):
            idx += 1
            name = f"conv_{idx}"
        else:
            name = f"relu_{idx}"
        model.add_module(name, layer)
        if name in CONTENT_LAYERS:
            content_losses.append(ContentLoss(model(content_img)))
            model.add_module(f"content_loss_{idx}", content_losses[-1])
        if name in STYLE_LAYERS:
            style_losses.append(StyleLoss(model(style_img)))
            model.add_module(f"style_loss_{idx}", style_losses[-1])
    return model, style_losses, content_losses


def run_style_transfer(steps=6, style_weight=1e4, content_weight=1.0):
    torch.manual_seed(0)
    content_img = torch.rand(1, 3, SIZE, SIZE)
    grid = torch.linspace(0, 8, SIZE)
    style_img = (torch.sin(grid)[:, None] * torch.cos(grid)[None, :]).expand(1, 3, SIZE, SIZE) * 0.5 + 0.5
    model, style_losses, content_losses = build_style_model(make_trunk(), style_img, content_img)
    image = content_img.clone().requires_grad_(True)
    optimizer = torch.optim.Adam([image], lr=0.03)
    for step in range(steps):
        model(image)
        style_score = sum(sl.loss for sl in style_losses)
        content_score = sum(cl.loss for cl in content_losses)
        loss = style_weight * style_score + content_weight * content_score
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            image.clamp_(0, 1)
        print(f"step {step} style {style_score.item():.6f} content {content_score.item():.6f}")
    return image


if __name__ == "__main__":
    run_style_transfer()
