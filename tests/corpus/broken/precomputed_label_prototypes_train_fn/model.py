"""Dual encoder: images and class labels are embedded in one space; logits are
cosine similarities between an image embedding and every label embedding."""
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, in_dim, n_classes, dim):
        super().__init__()
        self.image_encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.label_embed = nn.Embedding(n_classes, dim)
        self.logit_scale = 10.0

    def encode_images(self, x):
        return F.normalize(self.image_encoder(x), dim=-1)

    def encode_labels(self, labels):
        return F.normalize(self.label_embed(labels), dim=-1)
