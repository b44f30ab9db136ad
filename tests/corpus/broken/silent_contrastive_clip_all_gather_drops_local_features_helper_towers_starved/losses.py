"""Symmetric InfoNCE over the globally gathered batch (OpenCLIP-style ClipLoss)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from dist_utils import gather_features


class ClipLoss(nn.Module):
    def forward(self, image_features, text_features, logit_scale):
        all_image, all_text = gather_features(image_features, text_features)
        logits_per_image = logit_scale * all_image @ all_text.t()
        labels = torch.arange(len(all_image))
        return (F.cross_entropy(logits_per_image, labels)
                + F.cross_entropy(logits_per_image.t(), labels)) / 2
