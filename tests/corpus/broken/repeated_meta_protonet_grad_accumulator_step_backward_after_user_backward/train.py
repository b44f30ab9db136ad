"""Prototypical networks for 3-way 2-shot classification of synthetic 8x8 glyphs. Episodes
are accumulated four at a time before each meta-update."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from accum import GradAccumulator

N_WAY, K_SHOT, N_QUERY, N_CLASSES = 3, 2, 4, 10


class Encoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.proj = nn.Linear(8 * 2 * 2, dim)

    def forward(self, x):
        return self.proj(self.conv(x).flatten(1))


class GlyphWorld:
    def __init__(self):
        self.templates = torch.rand(N_CLASSES, 1, 8, 8)

    def sample(self, classes, n):
        x = self.templates[classes].repeat_interleave(n, 0)
        return x + 0.3 * torch.randn_like(x)

    def episode(self):
        classes = torch.randperm(N_CLASSES)[:N_WAY]
        support = self.sample(classes, K_SHOT)
        query = self.sample(classes, N_QUERY)
        query_y = torch.arange(N_WAY).repeat_interleave(N_QUERY)
        return support, query, query_y


def proto_loss(encoder, support, query, query_y):
    prototypes = encoder(support).view(N_WAY, K_SHOT, -1).mean(1)
    logits = -torch.cdist(encoder(query), prototypes).pow(2)
    return F.cross_entropy(logits, query_y), (logits.argmax(1) == query_y).float().mean()


def main():
    torch.manual_seed(4)
    world, encoder = GlyphWorld(), Encoder()
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    accumulator = GradAccumulator(optimizer, every=4)
    optimizer.zero_grad()
    for episode in range(8):
        support, query, query_y = world.episode()
        loss, acc = proto_loss(encoder, support, query, query_y)
        loss.backward()
        stepped = accumulator.step(loss)
        print(f"episode {episode} loss {loss.item():.4f} acc {acc.item():.2f} step {stepped}")


if __name__ == "__main__":
    main()
