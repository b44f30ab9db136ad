"""Image helpers shared by the style-transfer scripts."""
import torch

IMAGENET_MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
IMAGENET_STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def normalize_for_encoder(img):
    """Map a [0, 1] image batch into the encoder's input space."""
    return (img - IMAGENET_MEAN) / IMAGENET_STD


def channel_stats(feat, eps=1e-5):
    flat = feat.flatten(2)
    return flat.mean(-1, keepdim=True).unsqueeze(-1), (flat.var(-1, keepdim=True) + eps).sqrt().unsqueeze(-1)


def adain(content_feat, style_feat):
    c_mean, c_std = channel_stats(content_feat)
    s_mean, s_std = channel_stats(style_feat)
    return (content_feat - c_mean) / c_std * s_std + s_mean
