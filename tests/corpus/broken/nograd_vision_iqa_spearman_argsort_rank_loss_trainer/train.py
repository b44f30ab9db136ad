"""No-reference image quality assessment: a small CNN scores distorted 16x16 patches and is
trained to rank them like the human mean opinion scores (MOS). The objective is the
Spearman rank correlation (SROCC) between predicted scores and MOS, the benchmark metric."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class QualityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.score = nn.Linear(16, 1)

    def forward(self, x):
        return self.score(self.features(x).flatten(1)).squeeze(1)


def pearson(a, b):
    a, b = a - a.mean(), b - b.mean()
    return (a * b).sum() / (a.norm() * b.norm() + 1e-8)


def srocc_loss(pred, mos):
    pred_rank = pred.argsort().argsort().float()
    mos_rank = mos.argsort().argsort().float()
    return 1.0 - pearson(pred_rank, mos_rank)


def distorted_patches(n=48):
    clean = torch.rand(n, 1, 16, 16)
    noise_level = torch.rand(n)
    patches = clean + noise_level[:, None, None, None] * torch.randn(n, 1, 16, 16)
    mos = 5.0 - 4.0 * noise_level
    return patches, mos


class IQATrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.history = []

    def train_step(self, patches, mos):
        self.model.train()
        loss = srocc_loss(self.model(patches), mos)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.history.append(1.0 - loss.item())
        return loss.item()

    def fit(self, batches):
        for step, (patches, mos) in enumerate(batches):
            loss = self.train_step(patches, mos)
            print(f"step {step} loss {loss:.4f} srocc {self.history[-1]:.3f}")


trainer = IQATrainer(QualityNet())
trainer.fit([distorted_patches() for _ in range(5)])
