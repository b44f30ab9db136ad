"""DCN-v2 click-through-rate model on synthetic impression logs: sparse ids (user, item,
category, hour) plus dense features, a cross network and a deep tower in parallel."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from towers import CrossLayer, make_tower

CARDINALITIES = {"user": 50, "item": 80, "category": 12, "hour": 24}
EMB, DENSE = 8, 4


class DCNv2(nn.Module):
    def __init__(self, n_cross=2):
        super().__init__()
        self.embeddings = nn.ModuleDict({k: nn.Embedding(n, EMB) for k, n in CARDINALITIES.items()})
        self.dense_proj = nn.Linear(DENSE, EMB)
        dim = EMB * (len(CARDINALITIES) + 1)
        self.cross = nn.ModuleList([CrossLayer(dim) for _ in range(n_cross)])
        self.deep = make_tower(dim, [64, 32], dropout=0.1)
        self.head = nn.Linear(dim + 32, 1)

    def forward(self, sparse, dense):
        fields = [self.embeddings[k](sparse[:, i]) for i, k in enumerate(CARDINALITIES)]
        x0 = torch.cat(fields + [self.dense_proj(dense)], dim=1)
        xc = x0
        for layer in self.cross:
            xc = layer(x0, xc)
        xd = self.deep(x0)
        return self.head(torch.cat([xc, xd], dim=1)).squeeze(1)


def impressions(n, gen, affinity):
    sparse = torch.stack([torch.randint(0, c, (n,), generator=gen) for c in CARDINALITIES.values()], 1)
    dense = torch.randn(n, DENSE, generator=gen)
    score = affinity[sparse[:, 0], sparse[:, 2]] + 0.5 * dense[:, 0] - 0.3 * (sparse[:, 3] > 18).float()
    clicks = (torch.rand(n, generator=gen) < torch.sigmoid(score)).float()
    return sparse, dense, clicks


def train(epochs=3, batches_per_epoch=2, batch=64):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(21)
    affinity = torch.randn(CARDINALITIES["user"], CARDINALITIES["category"], generator=gen)
    model = DCNv2()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(epochs):
        model.train()
        for _ in range(batches_per_epoch):
            sparse, dense, clicks = impressions(batch, gen, affinity)
            logits = model(sparse, dense)
            loss = F.binary_cross_entropy_with_logits(logits, clicks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = ((logits > 0).float() == clicks).float().mean().item()
        print(f"epoch {epoch} logloss {loss.item():.4f} acc {acc:.3f}")


if __name__ == "__main__":
    train()
