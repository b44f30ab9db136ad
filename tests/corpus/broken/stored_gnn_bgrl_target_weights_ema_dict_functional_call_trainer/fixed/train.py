"""Bootstrapped graph latents (BGRL) for self-supervised node representations: an online GCN
encoder plus predictor is trained to predict, across two augmented views of the graph, the
node embeddings of a target encoder whose weights are an exponential moving average of the
online weights (kept as a plain dict of tensors and applied with torch.func.functional_call)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

N_NODES, N_FEATS, HIDDEN, STEPS = 20, 8, 16, 6


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(N_FEATS, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, HIDDEN)
        self.act = nn.PReLU()
        self.norm = nn.LayerNorm(HIDDEN)

    def forward(self, x, adj_norm):
        h = self.act(adj_norm @ self.lin1(x))
        return self.norm(adj_norm @ self.lin2(h))


def normalise(adj):
    adj = adj + torch.eye(adj.size(0))
    d = adj.sum(1).rsqrt()
    return d[:, None] * adj * d[None, :]


def augment(x, adj, generator, feat_drop=0.2, edge_drop=0.3):
    feat_mask = (torch.rand(x.size(1), generator=generator) > feat_drop).float()
    keep = (torch.rand(adj.shape, generator=generator) > edge_drop).float().triu(1)
    keep = keep + keep.t()
    return x * feat_mask, normalise(adj * keep)


class BGRLTrainer:
    def __init__(self, encoder, predictor, total_steps, base_momentum=0.99, lr=5e-3):
        self.encoder = encoder
        self.predictor = predictor
        self.optimizer = torch.optim.AdamW(
            list(encoder.parameters()) + list(predictor.parameters()), lr=lr, weight_decay=1e-5)
        self.target_params = {k: p.detach().clone() for k, p in encoder.named_parameters()}
        steps = torch.linspace(0, math.pi, total_steps)
        self.momentum = 1 - (1 - base_momentum) * (torch.cos(steps) + 1) / 2
        self.step = 0

    def target_embed(self, x, adj_norm):
        return functional_call(self.encoder, self.target_params, (x, adj_norm))

    def update_target(self):
        m = self.momentum[self.step]
        self.target_params = {k: m * self.target_params[k] + (1 - m) * p.detach()
                              for k, p in self.encoder.named_parameters()}

    def train_step(self, view1, view2):
        q1 = self.predictor(self.encoder(*view1))
        q2 = self.predictor(self.encoder(*view2))
        y1, y2 = self.target_embed(*view1), self.target_embed(*view2)
        loss = (2 - 2 * F.cosine_similarity(q1, y2, dim=-1).mean()) + \
               (2 - 2 * F.cosine_similarity(q2, y1, dim=-1).mean())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.update_target()
        self.step += 1
        return loss.item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(6)
    x = torch.randn(N_NODES, N_FEATS, generator=gen)
    adj = (torch.rand(N_NODES, N_NODES, generator=gen) < 0.2).float().triu(1)
    adj = adj + adj.t()
    encoder = GCN()
    predictor = nn.Sequential(nn.Linear(HIDDEN, 32), nn.PReLU(), nn.Linear(32, HIDDEN))
    trainer = BGRLTrainer(encoder, predictor, total_steps=STEPS)
    for step in range(STEPS):
        loss = trainer.train_step(augment(x, adj, gen), augment(x, adj, gen))
        print(f"step {step} bgrl loss {loss:.4f} momentum {trainer.momentum[step].item():.4f}")


if __name__ == "__main__":
    main()
