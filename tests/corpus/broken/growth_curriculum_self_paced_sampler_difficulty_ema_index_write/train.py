"""Self-paced curriculum learning for a noisy 4-class tabular problem: the hardest (often
mislabelled) rows are held back early on and admitted as training progresses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from curriculum import SelfPacedSampler

torch.manual_seed(0)
N, D, C = 96, 8, 4


def make_data():
    centers = torch.randn(C, D) * 2
    y = torch.randint(0, C, (N,))
    x = centers[y] + torch.randn(N, D)
    flip = torch.rand(N) < 0.15
    y = torch.where(flip, torch.randint(0, C, (N,)), y)
    return x, y


def train(epochs=3, batch_size=32):
    x, y = make_data()
    model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, C))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sampler = SelfPacedSampler(N)
    gen = torch.Generator().manual_seed(0)
    for epoch in range(epochs):
        batches = sampler.epoch_indices(epoch, batch_size, gen)
        for idx in batches:
            losses = F.cross_entropy(model(x[idx]), y[idx], reduction="none")
            loss = losses.mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            sampler.update(idx, losses)
        print(f"epoch {epoch} batches {len(batches)} loss {loss.item():.4f} "
              f"mean difficulty {sampler.difficulty[sampler.seen].mean().item():.4f}")


if __name__ == "__main__":
    train()
