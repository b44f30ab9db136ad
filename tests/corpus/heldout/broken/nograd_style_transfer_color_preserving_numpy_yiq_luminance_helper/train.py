"""Colour-preserving fast style transfer: a small feed-forward network is trained so that
the LUMINANCE of its output matches the content luminance in feature space and the
(luminance-matched) style image's Gram statistics. The loss network is a frozen random-
feature CNN working on single-channel images."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from colors import luminance, match_luminance

SIZE = 24


def gram(feats):
    b, c, h, w = feats.shape
    flat = feats.reshape(b, c, h * w)
    return flat @ flat.transpose(1, 2) / (c * h * w)


class StyleNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1), nn.InstanceNorm2d(ch, affine=True), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.InstanceNorm2d(ch, affine=True), nn.ReLU(),
            nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.body(x) + torch.logit(x.clamp(0.01, 0.99)))


def train(steps=6, style_weight=2e3):
    torch.manual_seed(0)
    net = StyleNet()
    loss_net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                             nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU()).requires_grad_(False)
    grid = torch.linspace(0, 10, SIZE)
    style_rgb = torch.stack([torch.sin(grid)[:, None] * torch.cos(grid)[None, :]] * 3).unsqueeze(0) * 0.5 + 0.5
    optimizer = torch.optim.Adam(net.parameters(), lr=2e-3)
    for step in range(steps):
        content = torch.rand(4, 3, SIZE, SIZE)
        content_y = luminance(content)
        style_y = match_luminance(luminance(style_rgb), content_y)
        with torch.no_grad():
            style_gram = gram(loss_net(style_y))
            content_feats = loss_net(content_y)
        out_y = luminance(net(content))
        feats = loss_net(out_y)
        content_loss = F.mse_loss(feats, content_feats)
        style_loss = F.mse_loss(gram(feats), style_gram.expand(feats.shape[0], -1, -1))
        loss = content_loss + style_weight * style_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} content {content_loss.item():.5f} style {style_loss.item():.6f}")
    return net


if __name__ == "__main__":
    train()
