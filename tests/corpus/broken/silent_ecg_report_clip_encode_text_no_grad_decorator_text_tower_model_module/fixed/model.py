"""Contrastive ECG / report pretraining (a tiny MERL / CLIP for 12-lead ECGs): a 1-D conv
ECG encoder and a bag-of-words report tower are projected into one space and aligned with
a symmetric InfoNCE loss."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextTower(nn.Module):
    def __init__(self, vocab, dim, out):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, out))

    def forward(self, tokens):
        mask = (tokens != 0).float().unsqueeze(-1)
        pooled = (self.embed(tokens) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.proj(pooled)


class ECGReportCLIP(nn.Module):
    def __init__(self, leads=12, vocab=30, dim=24, out=16):
        super().__init__()
        self.ecg_tower = nn.Sequential(
            nn.Conv1d(leads, dim, 7, stride=2, padding=3), nn.GELU(),
            nn.Conv1d(dim, dim, 5, stride=2, padding=2), nn.GELU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(dim, out))
        self.text_tower = TextTower(vocab, dim, out)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def encode_ecg(self, ecg):
        return F.normalize(self.ecg_tower(ecg), dim=-1)

    def encode_text(self, tokens):
        return F.normalize(self.text_tower(tokens), dim=-1)

    def forward(self, ecg, tokens):
        ecg_emb = self.encode_ecg(ecg)
        text_emb = self.encode_text(tokens)
        return self.logit_scale.exp() * ecg_emb @ text_emb.t()
