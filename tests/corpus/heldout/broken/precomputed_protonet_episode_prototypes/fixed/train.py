"""Prototypical network for 3-way 4-shot classification of synthetic 'sensor signatures'.
Each episode embeds the support set once into class prototypes, then the query set is fed
in chunks, with an optimizer step after each chunk to keep memory low."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_WAY, K_SHOT, N_QUERY, Q_CHUNK, DIM = 3, 4, 12, 4, 20


class Embedder(nn.Module):
    def __init__(self, in_dim=DIM, hidden=32, out_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.LayerNorm(hidden), nn.GELU(),
                                 nn.Linear(hidden, out_dim))

    def forward(self, x):
        return self.net(x)


def sample_episode(class_means):
    classes = torch.randperm(class_means.size(0))[:N_WAY]
    support = class_means[classes].repeat_interleave(K_SHOT, 0) + 0.6 * torch.randn(N_WAY * K_SHOT, DIM)
    query_y = torch.arange(N_WAY).repeat(N_QUERY // N_WAY)
    query = class_means[classes][query_y] + 0.6 * torch.randn(N_QUERY, DIM)
    return support, query, query_y


def train(model, optimizer, class_means, episodes):
    for episode in range(episodes):
        support, query, query_y = sample_episode(class_means)
        chunk_losses = []
        for qx, qy in zip(query.split(Q_CHUNK), query_y.split(Q_CHUNK)):
            prototypes = model(support).view(N_WAY, K_SHOT, -1).mean(1)
            logits = -torch.cdist(model(qx), prototypes).pow(2)
            loss = F.cross_entropy(logits, qy)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            chunk_losses.append(loss.item())
        print(f"episode {episode} query loss {sum(chunk_losses) / len(chunk_losses):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    class_means = 1.5 * torch.randn(8, DIM)
    model = Embedder()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    train(model, optimizer, class_means, episodes=3)
