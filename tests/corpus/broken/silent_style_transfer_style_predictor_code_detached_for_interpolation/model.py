"""Arbitrary style transfer after Ghiasi et al. (2017): a style prediction network maps
the style image to a style code, and the transformer network applies it through
conditional instance normalisation. The current code is cached on the model so that it
can be reused for video frames or interpolated with another style."""
import torch
import torch.nn as nn


class StylePredictor(nn.Module):
    def __init__(self, code_dim=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.fc = nn.Linear(32, code_dim)

    def forward(self, style):
        return self.fc(self.conv(style).mean(dim=(2, 3)))


class CondInstanceNorm(nn.Module):
    def __init__(self, channels, code_dim):
        super().__init__()
        self.norm = nn.InstanceNorm2d(channels, affine=False)
        self.to_gamma = nn.Linear(code_dim, channels)
        self.to_beta = nn.Linear(code_dim, channels)

    def forward(self, x, code):
        gamma = 1.0 + self.to_gamma(code)[:, :, None, None]
        beta = self.to_beta(code)[:, :, None, None]
        return gamma * self.norm(x) + beta


class StyleTransferNet(nn.Module):
    def __init__(self, code_dim=16, width=16):
        super().__init__()
        self.predictor = StylePredictor(code_dim)
        self.enc = nn.Conv2d(3, width, 3, padding=1)
        self.cin1 = CondInstanceNorm(width, code_dim)
        self.mid = nn.Conv2d(width, width, 3, padding=1)
        self.cin2 = CondInstanceNorm(width, code_dim)
        self.dec = nn.Conv2d(width, 3, 3, padding=1)
        self.style_code = None

    def set_style(self, style):
        self.style_code = self.predictor(style).detach()

    def interpolate(self, other_code, alpha):
        self.style_code = (1 - alpha) * self.style_code + alpha * other_code

    def forward(self, content, style=None):
        if style is not None:
            self.set_style(style)
        code = self.style_code
        h = torch.relu(self.cin1(self.enc(content), code))
        h = h + torch.relu(self.cin2(self.mid(h), code))
        return torch.sigmoid(self.dec(h))
