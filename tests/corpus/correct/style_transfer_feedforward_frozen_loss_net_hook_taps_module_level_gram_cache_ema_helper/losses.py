"""Perceptual losses for fast style transfer: a small frozen convolutional 'loss network' whose
intermediate activations are tapped with forward hooks, and style Gram targets memoised per
style name in a module-level cache."""
import torch
import torch.nn as nn
import torch.nn.functional as F

_STYLE_GRAMS = {}


class LossNet(nn.Module):
    TAPS = ("relu1", "relu2", "relu3")

    def __init__(self):
        super().__init__()
        self.relu1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.relu2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.relu3 = nn.Sequential(nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU())
        self.taps = {}
        for name in self.TAPS:
            getattr(self, name).register_forward_hook(self._save(name))
        self.requires_grad_(False).eval()

    def _save(self, name):
        def hook(module, inputs, output):
            self.taps[name] = output
        return hook

    def forward(self, img):
        self.taps = {}
        self.relu3(self.relu2(self.relu1(img)))
        return dict(self.taps)


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.flatten(2)
    return f @ f.transpose(1, 2) / (c * h * w)


def style_targets(loss_net, style_name, style_img):
    if style_name not in _STYLE_GRAMS:
        with torch.no_grad():
            feats = loss_net(style_img)
        _STYLE_GRAMS[style_name] = {k: gram(v) for k, v in feats.items()}
    return _STYLE_GRAMS[style_name]


def perceptual_loss(loss_net, stylized, content, style_grams, content_weight=100.0,
                    style_weight=3e4):
    with torch.no_grad():
        content_feats = loss_net(content)
    out_feats = loss_net(stylized)
    content_loss = content_weight * F.mse_loss(out_feats["relu2"], content_feats["relu2"])
    style_loss = sum(F.mse_loss(gram(out_feats[k]), style_grams[k].expand(len(stylized), -1, -1))
                     for k in LossNet.TAPS)
    tv = (stylized[..., 1:, :] - stylized[..., :-1, :]).abs().mean() + \
         (stylized[..., 1:] - stylized[..., :-1]).abs().mean()
    return content_loss, style_weight * style_loss, 0.1 * tv
