"""Single-style AdaIN: a decoder learns to render encoder features re-normalised with the
style image's channel statistics. The encoder stands in for a pretrained VGG slice."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import StatsTap, capture_style

STYLE_WEIGHT = 2.0


def adain(content_feat, style_mean, style_std):
    mean = content_feat.mean(dim=(2, 3), keepdim=True)
    std = (content_feat.var(dim=(2, 3), keepdim=True) + 1e-5).sqrt()
    return (content_feat - mean) / std * style_std[..., None, None] + style_mean[..., None, None]


def main():
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
    decoder = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
    taps = [StatsTap(encoder[1]), StatsTap(encoder[3])]
    optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-3)

    style = torch.rand(1, 3, 16, 16)
    capture_style(encoder, taps, style)

    for step in range(3):
        content = torch.rand(4, 3, 16, 16)
        target = adain(encoder(content), taps[-1].target_mean, taps[-1].target_std)
        rendered = decoder(target)
        content_loss = F.mse_loss(encoder(rendered), target)
        style_loss = sum(tap.style_loss() for tap in taps)
        loss = content_loss + STYLE_WEIGHT * style_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} content {content_loss.item():.4f} style {style_loss.item():.4f}")


if __name__ == "__main__":
    main()
