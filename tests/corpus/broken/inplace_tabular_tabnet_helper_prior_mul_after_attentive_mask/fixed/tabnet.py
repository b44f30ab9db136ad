"""A compact TabNet encoder (Arik & Pfister): sequential attention over the input columns.
Each decision step picks features with an attentive mask scaled by a prior that records
how much every feature has been used by the earlier steps."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GLUBlock(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.fc = nn.Linear(in_dim, 2 * out_dim)
        self.bn = nn.BatchNorm1d(2 * out_dim)

    def forward(self, x):
        return F.glu(self.bn(self.fc(x)))


class AttentiveTransformer(nn.Module):
    def __init__(self, n_a, n_features):
        super().__init__()
        self.fc = nn.Linear(n_a, n_features)
        self.bn = nn.BatchNorm1d(n_features)

    def forward(self, a, prior):
        return torch.softmax(self.bn(self.fc(a)) * prior, dim=-1)


class TabNetEncoder(nn.Module):
    def __init__(self, n_features, n_d=8, n_a=8, n_steps=3, gamma=1.3):
        super().__init__()
        self.n_d, self.n_steps, self.gamma = n_d, n_steps, gamma
        self.initial_bn = nn.BatchNorm1d(n_features)
        self.shared = GLUBlock(n_features, n_d + n_a)
        self.initial_step = GLUBlock(n_d + n_a, n_d + n_a)
        self.steps = nn.ModuleList(GLUBlock(n_d + n_a, n_d + n_a) for _ in range(n_steps))
        self.attention = nn.ModuleList(AttentiveTransformer(n_a, n_features)
                                       for _ in range(n_steps))

    def transform(self, x, step_block):
        h = self.shared(x)
        return (h + step_block(h)) * math.sqrt(0.5)

    def forward(self, x):
        x = self.initial_bn(x)
        prior = torch.ones_like(x)
        att = self.transform(x, self.initial_step)[:, self.n_d:]
        decision, sparsity = 0.0, 0.0
        for step in range(self.n_steps):
            mask = self.attention[step](att, prior)
            sparsity = sparsity + (-mask * torch.log(mask + 1e-10)).sum(1).mean()
            prior = prior * (self.gamma - mask)
            h = self.transform(x * mask, self.steps[step])
            decision = decision + F.relu(h[:, :self.n_d])
            att = h[:, self.n_d:]
        return decision, sparsity / self.n_steps
