import torch
import torch.nn as nn
import torch.nn.functional as F

import scoring

torch.manual_seed(0)


class FaceEmbedder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(4)
        self.proj = nn.Linear(4 * 4 * 4, dim)

    def forward(self, x):
        h = F.relu(self.conv(x))
        h = self.pool(h).flatten(1)
        return self.proj(h)


def make_pairs(identities, n=8):
    ids = torch.randint(0, identities.shape[0], (n, 2))
    same = (ids[:, 0] == ids[:, 1]).float()
    a = identities[ids[:, 0]] + 0.1 * torch.randn(n, 1, 12, 12)
    b = identities[ids[:, 1]] + 0.1 * torch.randn(n, 1, 12, 12)
    return a, b, same


def main():
    identities = torch.randn(3, 1, 12, 12)
    net = FaceEmbedder()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    for step in range(5):
        a, b, same = make_pairs(identities)
        logits = scoring.pair_logits(net(a), net(b))
        loss = F.binary_cross_entropy_with_logits(logits, same)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} verification loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
