"""Gatys-style neural style transfer: optimize the pixels of an image against a fixed
feature network. The content target was detached; the style target was not."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# stand-in for a pretrained VGG slice: its weights still have requires_grad=True,
# but only the image is handed to the optimizer
features = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
)


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


content_img = torch.rand(1, 3, 16, 16)
style_img = torch.rand(1, 3, 16, 16)

content_target = features(content_img).detach()
style_target = gram(features(style_img)).detach()

img = content_img.clone().requires_grad_(True)
optimizer = torch.optim.Adam([img], lr=0.05)
style_weight = 1e3

for step in range(5):
    optimizer.zero_grad()
    f = features(img)
    content_loss = F.mse_loss(f, content_target)
    style_loss = F.mse_loss(gram(f), style_target)
    loss = content_loss + style_weight * style_loss
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        img.clamp_(0, 1)
print(f"final loss {loss.item():.6f}")
