"""Metric learning with a triplet loss; the backbone is the only trainable part.
A .detach() was added to the embedding while chasing a memory leak."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IN_DIM, EMB, CLASSES = 16, 8, 4
CENTERS = 0.5 * torch.randn(CLASSES, IN_DIM)


def sample_triplets(n):
    cls = torch.randint(0, CLASSES, (n,))
    other = (cls + torch.randint(1, CLASSES, (n,))) % CLASSES
    anchor = CENTERS[cls] + torch.randn(n, IN_DIM)
    positive = CENTERS[cls] + torch.randn(n, IN_DIM)
    negative = CENTERS[other] + torch.randn(n, IN_DIM)
    return anchor, positive, negative


class TripletTrainer:
    def __init__(self, margin=0.5):
        self.backbone = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.optimizer = torch.optim.SGD(self.backbone.parameters(), lr=0.05, momentum=0.9)
        self.margin = margin

    def train_step(self, anchor, positive, negative):
        emb = self.backbone(torch.cat([anchor, positive, negative])).detach()
        za, zp, zn = F.normalize(emb, dim=1).chunk(3)
        loss = F.triplet_margin_loss(za, zp, zn, margin=self.margin)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, steps):
        for step in range(steps):
            loss = self.train_step(*sample_triplets(32))
        return loss


trainer = TripletTrainer()
print(f"triplet loss {trainer.fit(5):.4f}")
