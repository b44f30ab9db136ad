"""Prototypical networks on a synthetic 40-class problem: each episode samples 5 classes,
embeds 3 support and 4 query points per class, and classifies the queries by their distance
to the class prototypes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from fewshot import euclidean_logits, prototypes, sample_episode

torch.manual_seed(7)
N_CLASSES, IN_DIM, EMB_DIM = 40, 10, 16
N_WAY, K_SHOT, N_QUERY, EPISODES = 5, 3, 4, 6


def make_encoder():
    return nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                         nn.Linear(32, EMB_DIM))


def train(encoder, class_means, episodes):
    optimizer = torch.optim.Adam(encoder.parameters(), lr=3e-3)
    gen = torch.Generator().manual_seed(0)
    for episode in range(episodes):
        support, query, query_labels = sample_episode(class_means, N_WAY, K_SHOT, N_QUERY, gen)
        support_emb = encoder(support.view(-1, IN_DIM)).view(N_WAY, K_SHOT, EMB_DIM)
        query_emb = encoder(query)
        logits = euclidean_logits(prototypes(support_emb), query_emb)
        loss = F.cross_entropy(logits, query_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == query_labels).float().mean().item()
        print(f"episode {episode} loss {loss.item():.4f} query acc {acc:.3f}")
    return encoder


if __name__ == "__main__":
    class_means = 2.0 * torch.randn(N_CLASSES, IN_DIM)
    encoder = train(make_encoder(), class_means, EPISODES)
    print(f"checksum {sum(p.sum().item() for p in encoder.parameters()):.4f}")
