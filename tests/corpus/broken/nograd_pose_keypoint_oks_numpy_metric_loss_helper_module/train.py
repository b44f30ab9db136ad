"""Top-down hand-keypoint regressor trained on an OKS objective."""
from dataclasses import dataclass

import torch
import torch.nn as nn

from metrics import oks_loss


@dataclass
class Config:
    n_keypoints: int = 5
    feat_dim: int = 20
    batch: int = 16
    steps: int = 6
    lr: float = 3e-3
    sigmas: tuple = (0.025, 0.035, 0.035, 0.025, 0.030)


class KeypointHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n = cfg.n_keypoints
        self.net = nn.Sequential(nn.Linear(cfg.feat_dim, 64), nn.Tanh(), nn.Linear(64, 2 * cfg.n_keypoints))

    def forward(self, feats):
        return torch.sigmoid(self.net(feats)).view(-1, self.n, 2)


def train(cfg):
    torch.manual_seed(5)
    mixing = torch.randn(cfg.feat_dim, 2 * cfg.n_keypoints) * 0.4
    model = KeypointHead(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        feats = torch.randn(cfg.batch, cfg.feat_dim)
        target = torch.sigmoid(feats @ mixing).view(-1, cfg.n_keypoints, 2)
        area = torch.full((cfg.batch,), 4.0)
        pred = model(feats)
        loss = oks_loss(pred, target, area, cfg.sigmas)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} 1-OKS {loss.item():.4f}")


if __name__ == "__main__":
    train(Config())
