"""Gatys-style neural style transfer on a tiny image with L-BFGS. The feature extractor is
never frozen (its weights keep requires_grad=True and no optimizer holds them); the content
and style targets are computed once, before the optimisation, under torch.no_grad()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, STYLE_WEIGHT, CONTENT_WEIGHT = 20, 1e4, 1.0
STYLE_LAYERS, CONTENT_LAYER = (0, 1, 2), 2


def gram_matrix(feat):
    c, hw = feat.size(1), feat.size(2) * feat.size(3)
    f = feat.view(c, hw)
    return f @ f.t() / (c * hw)


class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2)),
            nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())])

    def forward(self, x):
        outs = []
        for block in self.blocks:
            x = block(x)
            outs.append(x)
        return outs


torch.manual_seed(0)
features = Features()
content_img = torch.rand(1, 3, SIZE, SIZE)
style_img = torch.rand(1, 3, SIZE, SIZE).pow(2)

with torch.no_grad():
    content_target = features(content_img)[CONTENT_LAYER]
    style_feats = features(style_img)
    style_targets = [gram_matrix(style_feats[i]) for i in STYLE_LAYERS]

canvas = content_img.clone().requires_grad_(True)
optimizer = torch.optim.LBFGS([canvas], lr=0.5, max_iter=5)

for outer in range(4):
    def closure():
        optimizer.zero_grad()
        feats = features(canvas)
        c_loss = F.mse_loss(feats[CONTENT_LAYER], content_target)
        s_loss = sum(F.mse_loss(gram_matrix(feats[i]), g)
                     for i, g in zip(STYLE_LAYERS, style_targets))
        loss = CONTENT_WEIGHT * c_loss + STYLE_WEIGHT * s_loss
        loss.backward()
        return loss

    loss = optimizer.step(closure)
    with torch.no_grad():
        canvas.clamp_(0, 1)
    print(f"round {outer} loss {loss.item():.6f}")
print(f"canvas mean {canvas.mean().item():.6f}")
