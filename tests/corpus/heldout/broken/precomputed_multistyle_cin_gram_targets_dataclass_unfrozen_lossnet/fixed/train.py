"""Multi-style feed-forward stylisation (conditional instance norm, Dumoulin et al.) on
small random "photos". Style Gram targets for every style are prepared once in a
StyleTargets dataclass and reused for every batch."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STYLES, IMG, BATCH, STYLE_WEIGHT = 3, 16, 4, 5.0


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.reshape(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


class LossNetwork(nn.Module):
    """Stand-in for the VGG feature extractor: returns the activations of three stages."""

    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())])

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class CondInstanceNorm(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.gamma = nn.Embedding(N_STYLES, channels)
        self.beta = nn.Embedding(N_STYLES, channels)
        nn.init.ones_(self.gamma.weight)
        nn.init.zeros_(self.beta.weight)

    def forward(self, x, style):
        x = F.instance_norm(x)
        return x * self.gamma(style)[:, :, None, None] + self.beta(style)[:, :, None, None]


class StyleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.norm1 = nn.Conv2d(3, 16, 3, padding=1), CondInstanceNorm(16)
        self.conv2, self.norm2 = nn.Conv2d(16, 16, 3, padding=1), CondInstanceNorm(16)
        self.out = nn.Conv2d(16, 3, 3, padding=1)

    def forward(self, x, style):
        h = F.relu(self.norm1(self.conv1(x), style))
        h = F.relu(self.norm2(self.conv2(h), style))
        return torch.sigmoid(self.out(h))


@dataclass
class StyleTargets:
    grams: dict = field(default_factory=dict)

    @torch.no_grad()
    def add(self, style_id, style_image, loss_net):
        self.grams[style_id] = [gram(f) for f in loss_net(style_image)]

    def for_batch(self, styles):
        return [torch.cat([self.grams[int(s)][i] for s in styles]) for i in range(3)]


torch.manual_seed(0)
loss_net, style_net = LossNetwork(), StyleNet()
optimizer = torch.optim.Adam(style_net.parameters(), lr=1e-3)
targets = StyleTargets()
for sid in range(N_STYLES):
    targets.add(sid, torch.rand(1, 3, IMG, IMG), loss_net)

for step in range(5):
    photos = torch.rand(BATCH, 3, IMG, IMG)
    styles = torch.randint(0, N_STYLES, (BATCH,))
    stylised = style_net(photos, styles)
    out_feats, photo_feats = loss_net(stylised), loss_net(photos)
    content_loss = F.mse_loss(out_feats[2], photo_feats[2].detach())
    style_loss = sum(F.mse_loss(gram(f), g) for f, g in zip(out_feats, targets.for_batch(styles)))
    loss = content_loss + STYLE_WEIGHT * style_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} content {content_loss.item():.3e} style {style_loss.item():.3e}")
