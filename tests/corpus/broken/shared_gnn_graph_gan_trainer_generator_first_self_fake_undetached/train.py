"""Adversarial graph generation for small community graphs: the generator maps noise to a
soft adjacency matrix (a latent-position model), the discriminator is a dense GCN that reads
the adjacency and returns a realness score. The trainer updates the generator first and then
the discriminator on the same generated batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

NODES, NOISE, LATENT, HIDDEN = 10, 8, 6, 16


def community_graphs(batch, gen):
    labels = torch.arange(NODES) % 2
    same = (labels[:, None] == labels[None, :]).float()
    probs = 0.7 * same + 0.05 * (1 - same)
    upper = (torch.rand(batch, NODES, NODES, generator=gen) < probs).float().triu(1)
    return upper + upper.transpose(1, 2)


class LatentPositionGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(NOISE, 64), nn.ReLU(), nn.Linear(64, NODES * LATENT))
        self.temperature = nn.Parameter(torch.tensor(1.0))

    def forward(self, z):
        pos = self.mlp(z).view(-1, NODES, LATENT)
        logits = pos @ pos.transpose(1, 2) / self.temperature
        mask = 1 - torch.eye(NODES)
        return torch.sigmoid(logits) * mask


class DenseGCNCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.node_embed = nn.Parameter(0.1 * torch.randn(NODES, HIDDEN))
        self.gc1 = nn.Linear(HIDDEN, HIDDEN)
        self.gc2 = nn.Linear(HIDDEN, HIDDEN)
        self.readout = nn.Linear(HIDDEN, 1)

    def forward(self, adj):
        a_hat = adj + torch.eye(NODES)
        a_hat = a_hat / a_hat.sum(-1, keepdim=True)
        h = F.relu(a_hat @ self.gc1(self.node_embed))
        h = F.relu(a_hat @ self.gc2(h))
        return self.readout(h.mean(dim=1))


class GraphGANTrainer:
    def __init__(self, batch=8):
        self.G, self.D = LatentPositionGenerator(), DenseGCNCritic()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-3, betas=(0.5, 0.9))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-3, betas=(0.5, 0.9))
        self.batch = batch
        self.fake = None

    def generator_step(self):
        self.fake = self.G(torch.randn(self.batch, NOISE))
        score = self.D(self.fake)
        g_loss = F.binary_cross_entropy_with_logits(score, torch.ones_like(score))
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()

    def discriminator_step(self, real):
        real_score, fake_score = self.D(real), self.D(self.fake)
        d_loss = (F.binary_cross_entropy_with_logits(real_score, torch.ones_like(real_score))
                  + F.binary_cross_entropy_with_logits(fake_score, torch.zeros_like(fake_score)))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def fit(self, iterations, gen):
        for it in range(iterations):
            g_loss = self.generator_step()
            d_loss = self.discriminator_step(community_graphs(self.batch, gen))
            density = self.fake.mean().item()
            print(f"iter {it} g_loss {g_loss:.4f} d_loss {d_loss:.4f} density {density:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    GraphGANTrainer().fit(5, torch.Generator().manual_seed(1))
