"""Point-cloud shape classifier with two memories kept across steps: an embedding bank keyed
by shape id (each shape's embedding from its previous visit, pulled towards by a temporal
consistency term) and a dict of running class centroids used for a compactness term. Both
are stored with .detach(), so they act as constant targets."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_POINTS, N_CLASSES, DIM = 40, 3, 24


class PointNetLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Conv1d(3, 16, 1), nn.ReLU(), nn.Conv1d(16, DIM, 1))
        self.head = nn.Linear(DIM, N_CLASSES)

    def forward(self, pts):
        z = self.point_mlp(pts.transpose(1, 2)).max(dim=2).values
        return z, self.head(z)


def random_rotation(gen):
    angle = 2 * math.pi * torch.rand((), generator=gen)
    c, s = angle.cos(), angle.sin()
    return torch.stack([torch.stack([c, -s, torch.zeros(())]),
                        torch.stack([s, c, torch.zeros(())]),
                        torch.tensor([0.0, 0.0, 1.0])])


def shape_catalogue(gen, n=12):
    ids, clouds, labels = [], [], []
    for i in range(n):
        label = i % N_CLASSES
        u = torch.rand(N_POINTS, 2, generator=gen)
        if label == 0:
            pts = F.normalize(torch.randn(N_POINTS, 3, generator=gen), dim=1)
        elif label == 1:
            t = 2 * math.pi * u[:, 0]
            pts = torch.stack([t.cos(), t.sin(), 2 * u[:, 1] - 1], dim=1)
        else:
            pts = torch.stack([2 * u[:, 0] - 1, 2 * u[:, 1] - 1, torch.zeros(N_POINTS)], dim=1)
        ids.append(f"shape_{i:03d}")
        clouds.append(pts)
        labels.append(label)
    return ids, torch.stack(clouds), torch.tensor(labels)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(13)
    ids, clouds, labels = shape_catalogue(gen)
    model = PointNetLite()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    bank = {}
    centroids = {}
    momentum = 0.7
    for epoch in range(2):
        for start in range(0, len(ids), 4):
            batch_ids = ids[start:start + 4]
            rot = random_rotation(gen)
            pts = clouds[start:start + 4] @ rot.t()
            y = labels[start:start + 4]
            z, logits = model(pts)
            loss = F.cross_entropy(logits, y)
            seen = [i for i, sid in enumerate(batch_ids) if sid in bank]
            if seen:
                past = torch.stack([bank[batch_ids[i]] for i in seen])
                loss = loss + 0.1 * F.mse_loss(z[seen], past)
            known = [i for i in range(len(y)) if int(y[i]) in centroids]
            if known:
                target = torch.stack([centroids[int(y[i])] for i in known])
                loss = loss + 0.05 * (z[known] - target).pow(2).sum(dim=1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            for i, sid in enumerate(batch_ids):
                bank[sid] = z[i].detach()
            for c in y.unique().tolist():
                mean = z[y == c].mean(dim=0).detach()
                centroids[c] = mean if c not in centroids else \
                    momentum * centroids[c] + (1 - momentum) * mean
            print(f"epoch {epoch} batch {start // 4} loss {loss.item():.4f} "
                  f"bank {len(bank)} centroids {len(centroids)}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
