"""Perceptual losses for feed-forward style transfer (Johnson et al.), computed with a fixed
feature extractor (a small stand-in for a pretrained VGG slice)."""
import torch.nn as nn
import torch.nn.functional as F


def gram(features):
    b, c, h, w = features.shape
    flat = features.reshape(b, c, h * w)
    return flat @ flat.transpose(1, 2) / (c * h * w)


class PerceptualLoss(nn.Module):
    def __init__(self, extractor, style_image, style_weight=1e5):
        super().__init__()
        self.extractor = extractor
        self.style_weight = style_weight
        self.style_target = gram(extractor(style_image))  # computed once for the style image

    def forward(self, stylized, content):
        feats = self.extractor(stylized)
        content_loss = F.mse_loss(feats, self.extractor(content).detach())
        style_loss = F.mse_loss(gram(feats), self.style_target.expand(feats.size(0), -1, -1))
        return content_loss + self.style_weight * style_loss, content_loss, style_loss
