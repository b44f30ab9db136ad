"""Click-through-rate prediction with a parallel DCN-v2: field embeddings and log-scaled dense
counts form x0, which feeds a cross network and a deep MLP side by side; their outputs are
joined by a logistic head. The cross network's output is bounded by a forward hook
(stability.py) because of heavy-tailed count features."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from stability import ActivationClipper

FIELDS = [20, 12, 8, 30]  # user segment, ad category, hour bucket, publisher
N_DENSE, EMB = 2, 6
CONFIG = {"cross_layers": 2, "cross_clip": 10.0, "lr": 3e-3, "epochs": 2, "batch_size": 64}


class CrossNetwork(nn.Module):
    def __init__(self, dim, layers):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(layers)])

    def forward(self, x0):
        x = x0
        for layer in self.layers:
            x = x0 * layer(x) + x
        return x


class DCNv2(nn.Module):
    def __init__(self, cross_layers):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(n, EMB) for n in FIELDS])
        dim = len(FIELDS) * EMB + N_DENSE
        self.cross = CrossNetwork(dim, cross_layers)
        self.deep = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.head = nn.Linear(dim + 16, 1)

    def forward(self, sparse, dense):
        embedded = [table(sparse[:, i]) for i, table in enumerate(self.embeddings)]
        x0 = torch.cat(embedded + [torch.log1p(dense)], dim=1)
        return self.head(torch.cat([self.cross(x0), self.deep(x0)], dim=1)).squeeze(1)


def impressions(n, gen):
    sparse = torch.stack([torch.randint(0, size, (n,), generator=gen) for size in FIELDS], dim=1)
    dense = torch.distributions.Exponential(0.2).sample((n, N_DENSE))
    affinity = torch.cos(sparse[:, 0] * 0.7 + sparse[:, 1] * 1.3) * (sparse[:, 2] >= 4)
    logit = 1.5 * affinity + 0.3 * torch.log1p(dense[:, 0]) - 1.0
    clicks = torch.bernoulli(torch.sigmoid(logit), generator=gen)
    return sparse, dense, clicks


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = DCNv2(CONFIG["cross_layers"])
    clipper = ActivationClipper(CONFIG["cross_clip"])
    model.cross.register_forward_hook(clipper)
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    data = [impressions(CONFIG["batch_size"], gen) for _ in range(3)]
    for epoch in range(CONFIG["epochs"]):
        total = 0.0
        for sparse, dense, clicks in data:
            logits = model(sparse, dense)
            loss = F.binary_cross_entropy_with_logits(logits, clicks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} logloss {total / len(data):.4f} (ln 2 = {math.log(2):.4f}) "
              f"clipped {clipper.clipped}")


if __name__ == "__main__":
    main()
