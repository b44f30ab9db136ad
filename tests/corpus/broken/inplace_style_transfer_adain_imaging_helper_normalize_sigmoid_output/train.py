"""Arbitrary style transfer with AdaIN: a frozen convolutional encoder, AdaIN in feature
space, and a trainable decoder whose output image is scored by the same encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from imaging import adain, channel_stats, normalize_for_encoder


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU()),
            nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU()),
        ])

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
            nn.Upsample(scale_factor=2, mode="nearest"),
            nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 3, 3, padding=1),
        )

    def forward(self, t):
        return torch.sigmoid(self.net(t))


def style_loss(out_feats, style_feats):
    loss = 0.0
    for o, s in zip(out_feats, style_feats):
        o_mean, o_std = channel_stats(o)
        s_mean, s_std = channel_stats(s)
        loss = loss + F.mse_loss(o_mean, s_mean) + F.mse_loss(o_std, s_std)
    return loss


def train(steps=5, style_weight=5.0):
    torch.manual_seed(0)
    encoder = Encoder().requires_grad_(False).eval()
    decoder = Decoder()
    optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-3)
    grid = torch.linspace(0, 6.28, 16)
    stripes = torch.sin(grid * 3).view(1, 1, 1, 16).expand(4, 3, 16, 16) * 0.5 + 0.5
    for step in range(steps):
        content = torch.rand(4, 3, 16, 16)
        style = (stripes + 0.1 * torch.randn(4, 3, 16, 16)).clamp(0, 1)
        with torch.no_grad():
            c_feats = encoder(normalize_for_encoder(content.clone()))
            s_feats = encoder(normalize_for_encoder(style.clone()))
            target = adain(c_feats[-1], s_feats[-1])
        out = decoder(target)
        out_feats = encoder(normalize_for_encoder(out))
        loss_c = F.mse_loss(out_feats[-1], target)
        loss_s = style_loss(out_feats, s_feats)
        loss = loss_c + style_weight * loss_s
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} content {loss_c.item():.4f} style {loss_s.item():.4f}")
    return decoder


if __name__ == "__main__":
    train()
