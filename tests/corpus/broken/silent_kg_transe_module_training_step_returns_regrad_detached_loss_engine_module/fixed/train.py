"""TransE knowledge-graph embeddings with a margin ranking loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import fit

N_ENT, N_REL, DIM = 30, 4, 12


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(N_ENT, DIM)
        self.rel = nn.Embedding(N_REL, DIM)

    def score(self, h, r, t):
        return (F.normalize(self.ent(h), dim=-1) + self.rel(r) - F.normalize(self.ent(t), dim=-1)).norm(p=1, dim=-1)


class KGEModule:
    def __init__(self, margin=1.0):
        self.model = TransE()
        self.margin = margin

    def configure_optimizer(self):
        return torch.optim.Adam(self.model.parameters(), lr=1e-2)

    def training_step(self, batch):
        h, r, t = batch.unbind(1)
        t_corrupt = torch.randint(0, N_ENT, t.shape)
        pos = self.model.score(h, r, t)
        neg = self.model.score(h, r, t_corrupt)
        loss = F.relu(self.margin + pos - neg).mean()
        return {"loss": loss, "log": {"loss": loss.detach()}}


def make_triples(n=96):
    h = torch.randint(0, N_ENT, (n,))
    r = torch.randint(0, N_REL, (n,))
    t = (h + 3 * r + 1) % N_ENT
    return torch.stack([h, r, t], dim=1)


if __name__ == "__main__":
    torch.manual_seed(21)
    module = KGEModule()
    optimizer = module.configure_optimizer()
    triples = make_triples()
    batches = list(triples.split(24))
    fit(module, batches, optimizer, epochs=2)
