"""P-tuning helpers: the reparameterised prompt encoder and a verbaliser that scores the
[MASK]-like position against the (frozen) embeddings of each class's label words."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PromptEncoder(nn.Module):
    def __init__(self, n_virtual, d_model, hidden=32):
        super().__init__()
        self.register_buffer("ids", torch.arange(n_virtual))
        self.embedding = nn.Embedding(n_virtual, d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, hidden), nn.ReLU(), nn.Linear(hidden, d_model))

    def forward(self):
        return self.mlp(self.embedding(self.ids))


def verbaliser_logits(hidden, label_word_embeds, scale):
    """hidden: (B, D); label_word_embeds: (C, W, D) frozen; returns (B, C)."""
    protos = F.normalize(label_word_embeds.mean(dim=1), dim=-1)
    return scale * F.normalize(hidden, dim=-1) @ protos.t()


def prompt_diversity(prompt):
    unit = F.normalize(prompt, dim=-1)
    gram = unit @ unit.t()
    return (gram - torch.eye(len(prompt))).pow(2).mean()
