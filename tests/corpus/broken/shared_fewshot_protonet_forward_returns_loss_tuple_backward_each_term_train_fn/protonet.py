"""Prototypical network whose forward returns its training objectives: the query
classification loss and a prototype-separation regulariser that pushes class prototypes
of an episode apart (cosine similarity between different prototypes)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProtoNet(nn.Module):
    def __init__(self, in_dim, emb_dim, sep_weight=0.1):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, emb_dim))
        self.log_scale = nn.Parameter(torch.zeros(()))
        self.sep_weight = sep_weight

    def forward(self, support, support_y, query, query_y, n_way):
        emb_s = self.encoder(support)
        emb_q = self.encoder(query)
        protos = torch.stack([emb_s[support_y == c].mean(0) for c in range(n_way)])
        logits = -self.log_scale.exp() * torch.cdist(emb_q, protos).pow(2)
        query_loss = F.cross_entropy(logits, query_y)
        unit = F.normalize(protos, dim=1)
        cos = unit @ unit.t()
        off_diag = cos[~torch.eye(n_way, dtype=torch.bool)]
        sep_loss = self.sep_weight * off_diag.clamp(min=0).mean()
        acc = (logits.argmax(1) == query_y).float().mean()
        return (query_loss, sep_loss), acc
