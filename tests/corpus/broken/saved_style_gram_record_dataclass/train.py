"""Gatys-style style transfer on 24x24 images with a small frozen random-feature CNN.
Only the generated image is optimised. Each StyleLayer record keeps its last Gram matrix
and logs the feature energy of the generated image at that layer."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class StyleLayer:
    index: int
    target_gram: torch.Tensor
    weight: float = 1.0
    gram: torch.Tensor = None
    energies: list = field(default_factory=list)

    def loss(self, feats):
        b, c, h, w = feats.shape
        flat = feats.view(b, c, h * w)
        self.gram = torch.bmm(flat, flat.transpose(1, 2))
        return self.weight * F.mse_loss(self.gram / (c * h * w), self.target_gram)

    def log_energy(self):
        flat = self.gram.grad_fn._saved_self
        self.energies.append(flat.pow(2).mean().item())


def gram_matrix(feats):
    b, c, h, w = feats.shape
    flat = feats.view(b, c, h * w)
    return torch.bmm(flat, flat.transpose(1, 2)) / (c * h * w)


def extract(features, image, wanted):
    outs, x = {}, image
    for i, layer in enumerate(features):
        x = layer(x)
        if i in wanted:
            outs[i] = x
    return outs


torch.manual_seed(0)
features = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
).requires_grad_(False)
content_img = torch.rand(1, 3, 24, 24)
style_img = torch.sin(torch.linspace(0, 12, 24)).expand(1, 3, 24, 24).clone()
STYLE_IDS, CONTENT_ID = (1, 3, 6), 3
with torch.no_grad():
    style_feats = extract(features, style_img, STYLE_IDS)
    content_target = extract(features, content_img, (CONTENT_ID,))[CONTENT_ID]
style_layers = [StyleLayer(i, gram_matrix(style_feats[i]), weight=1e3) for i in STYLE_IDS]

image = content_img.clone().requires_grad_(True)
optimizer = torch.optim.Adam([image], lr=0.02)
for step in range(6):
    feats = extract(features, image, STYLE_IDS + (CONTENT_ID,))
    style_loss = sum(layer.loss(feats[layer.index]) for layer in style_layers)
    content_loss = F.mse_loss(feats[CONTENT_ID], content_target)
    loss = style_loss + content_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    for layer in style_layers:
        layer.log_energy()
    print(f"step {step} style {style_loss.item():.4f} content {content_loss.item():.4f} "
          f"energy {[round(layer.energies[-1], 4) for layer in style_layers]}")
