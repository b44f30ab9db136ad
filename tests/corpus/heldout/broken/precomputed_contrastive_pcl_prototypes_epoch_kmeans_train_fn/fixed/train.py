"""Prototypical contrastive learning (PCL-style) on synthetic feature vectors: at the start of
every epoch the whole data set is embedded and clustered with k-means (E-step); each batch
then minimises InfoNCE between two augmented views plus ProtoNCE against the cluster
prototypes (M-step)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, IN_DIM, EMB_DIM, BATCH, N_CLUSTERS, TAU = 48, 20, 12, 16, 4, 0.2


def augment(x):
    return x * (torch.rand_like(x) > 0.15).float() + 0.1 * torch.randn_like(x)


def run_kmeans(x, k, iters=8):
    centroids = x[torch.randperm(len(x))[:k]]
    for _ in range(iters):
        assign = (x @ centroids.t()).argmax(1)
        centroids = torch.stack([x[assign == j].mean(0) if (assign == j).any() else centroids[j]
                                 for j in range(k)])
        centroids = F.normalize(centroids, dim=1)
    assign = (x @ centroids.t()).argmax(1)
    density = torch.stack([(x[assign == j] - centroids[j]).norm(dim=1).mean()
                           / math.log((assign == j).sum().item() + 10) if (assign == j).any()
                           else torch.tensor(0.1) for j in range(k)])
    density = density.clamp(min=0.05) * (TAU / density.clamp(min=0.05).mean())
    return centroids, assign, density


def info_nce(q, k):
    logits = q @ k.t() / TAU
    return F.cross_entropy(logits, torch.arange(len(q)))


def train(epochs=2):
    torch.manual_seed(0)
    modes = torch.randn(N_CLUSTERS, IN_DIM) * 1.5
    data = modes[torch.arange(N_ITEMS) % N_CLUSTERS] + 0.5 * torch.randn(N_ITEMS, IN_DIM)
    encoder = nn.Sequential(nn.Linear(IN_DIM, 48), nn.ReLU(), nn.Linear(48, EMB_DIM))
    optimizer = torch.optim.SGD(encoder.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(epochs):
        with torch.no_grad():
            embeddings = F.normalize(encoder(data), dim=1)
            centroids, assignments, density = run_kmeans(embeddings, N_CLUSTERS)
        sizes = torch.bincount(assignments, minlength=N_CLUSTERS).tolist()
        print(f"epoch {epoch}: cluster sizes {sizes}")
        perm = torch.randperm(N_ITEMS)
        for start in range(0, N_ITEMS, BATCH):
            idx = perm[start:start + BATCH]
            q = F.normalize(encoder(augment(data[idx])), dim=1)
            k = F.normalize(encoder(augment(data[idx])), dim=1)
            proto_logits = q @ centroids.t() / density
            loss = info_nce(q, k) + F.cross_entropy(proto_logits, assignments[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"  batch {start // BATCH}: loss {loss.item():.4f}")
    return encoder


if __name__ == "__main__":
    model = train()
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
