"""Prototypical networks on synthetic "glyphs": each class is a random 10x10 stroke
template, and its examples are shifted, noisy copies. Training runs N-way K-shot episodes:
class prototypes are the mean support embedding, queries are classified by distance."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from monitor import EmbeddingMonitor

N_CLASSES, SIDE, WAY, SHOT, QUERY, EPISODES = 12, 10, 4, 3, 4, 6


def make_templates(generator):
    return (torch.rand(N_CLASSES, SIDE, SIDE, generator=generator) < 0.25).float()


def sample_episode(templates, generator):
    classes = torch.randperm(N_CLASSES, generator=generator)[:WAY]
    per_class = SHOT + QUERY
    base = templates[classes].repeat_interleave(per_class, dim=0)
    shifts = torch.randint(-1, 2, (base.size(0), 2), generator=generator)
    images = torch.stack([img.roll(tuple(s.tolist()), dims=(0, 1)) for img, s in zip(base, shifts)])
    images = images + 0.3 * torch.randn(images.shape, generator=generator)
    images = images.view(WAY, per_class, 1, SIDE, SIDE)
    support = images[:, :SHOT].reshape(-1, 1, SIDE, SIDE)
    query = images[:, SHOT:].reshape(-1, 1, SIDE, SIDE)
    query_labels = torch.arange(WAY).repeat_interleave(QUERY)
    return support, query, query_labels


class ProtoNet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, dim))

    def forward(self, support, query):
        emb = self.encoder(torch.cat([support, query]))
        prototypes = emb[:support.size(0)].view(WAY, SHOT, -1).mean(dim=1)
        return -torch.cdist(emb[support.size(0):], prototypes) ** 2


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(7)
    templates = make_templates(generator)
    model = ProtoNet()
    monitor = EmbeddingMonitor(model.encoder)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for episode in range(EPISODES):
        support, query, labels = sample_episode(templates, generator)
        logits = model(support, query)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(dim=1) == labels).float().mean().item()
        print(f"episode {episode} loss {loss.item():.4f} acc {acc:.2f} "
              f"emb-norm {monitor.norms[-1]:.3f}")
        if monitor.collapsed():
            print("embedding collapse detected")
            break
    monitor.close()


if __name__ == "__main__":
    main()
