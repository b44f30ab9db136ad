"""Contrastive representation distillation (Tian et al., 2019), memory-bank variant: the
student's embedding of an example is pulled towards the teacher's embedding of the same example
and pushed away from stored teacher embeddings of other examples. Both embedding heads are
learned; the teacher network itself stays frozen."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Embed(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.linear = nn.Linear(dim_in, dim_out)

    def forward(self, x):
        return F.normalize(self.linear(x), dim=1)


class CRDLoss(nn.Module):
    def __init__(self, s_dim, t_dim, feat_dim, n_data, n_neg=16, temperature=0.1, momentum=0.5):
        super().__init__()
        self.embed_s = Embed(s_dim, feat_dim)
        self.embed_t = Embed(t_dim, feat_dim)
        self.n_neg, self.temperature, self.momentum = n_neg, temperature, momentum
        self.register_buffer("memory_t", F.normalize(torch.randn(n_data, feat_dim), dim=1))

    def forward(self, f_s, f_t, idx):
        v_s = self.embed_s(f_s)
        v_t = self.embed_t(f_t)
        neg_idx = torch.randint(0, self.memory_t.shape[0], (len(idx), self.n_neg))
        negatives = self.memory_t[neg_idx]
        pos = (v_s * v_t).sum(1, keepdim=True)
        neg = torch.bmm(negatives, v_s.unsqueeze(2)).squeeze(2)
        logits = torch.cat([pos, neg], dim=1) / self.temperature
        loss = F.cross_entropy(logits, torch.zeros(len(idx), dtype=torch.long))
        self.update_memory(v_t, idx)
        return loss

    @torch.no_grad()
    def update_memory(self, v_t, idx):
        mixed = self.memory_t[idx] * self.momentum + v_t * (1 - self.momentum)
        self.memory_t[idx] = F.normalize(mixed, dim=1)
