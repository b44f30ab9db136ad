"""Face-embedding training with an additive angular margin (ArcFace) head."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginHead(nn.Module):
    def __init__(self, dim, n_ids, s=16.0, m=0.3):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_ids, dim) * 0.1)
        self.s, self.m = s, m

    def forward(self, emb, labels):
        cos = F.linear(F.normalize(emb), F.normalize(self.weight)).clamp(-1 + 1e-6, 1 - 1e-6)
        theta = torch.acos(cos)
        target = F.one_hot(labels, cos.size(1)).bool()
        return self.s * torch.where(target, torch.cos(theta + self.m), cos)


class FaceNet(nn.Module):
    def __init__(self, in_dim=32, dim=16, n_ids=10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 48), nn.PReLU(), nn.Linear(48, dim))
        self.head = ArcMarginHead(dim, n_ids)

    def forward(self, x, labels):
        return self.head(self.backbone(x), labels)


class FaceTrainer:
    def __init__(self):
        self.model = FaceNet()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05, momentum=0.9)
        self.centers = torch.randn(10, 32)

    def batch(self, n=40):
        ids = torch.randint(0, 10, (n,))
        return self.centers[ids] + 0.3 * torch.randn(n, 32), ids

    def train_step(self):
        x, ids = self.batch()
        logits = self.model(x, ids)
        loss = F.cross_entropy(logits, ids)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(4)
    trainer = FaceTrainer()
    for step in range(6):
        print(f"step {step} arcface loss {trainer.train_step():.4f}  margin {trainer.model.head.m:.2f} rad ({math.degrees(trainer.model.head.m):.0f} deg)")
