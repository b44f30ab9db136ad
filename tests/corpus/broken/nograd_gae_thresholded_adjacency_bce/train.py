"""Graph autoencoder on a small stochastic-block-model graph: a two-layer GCN encodes the
nodes and the inner-product decoder reconstructs the adjacency matrix. The decoder output
is binarized so that the reconstruction is compared edge for edge with the real graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, N_BLOCKS, FEATS, HIDDEN, LATENT = 30, 3, 8, 16, 4


def block_graph():
    block = torch.arange(N_NODES) % N_BLOCKS
    same = block[:, None] == block[None, :]
    probs = torch.where(same, torch.tensor(0.6), torch.tensor(0.05))
    upper = torch.triu((torch.rand(N_NODES, N_NODES) < probs).float(), diagonal=1)
    adj = upper + upper.t()
    features = F.one_hot(block, N_BLOCKS).float() @ torch.randn(N_BLOCKS, FEATS)
    return adj, features + 0.1 * torch.randn(N_NODES, FEATS)


def normalize(adj):
    a_hat = adj + torch.eye(len(adj))
    d_inv_sqrt = a_hat.sum(1).pow(-0.5)
    return d_inv_sqrt[:, None] * a_hat * d_inv_sqrt[None, :]


class GCNEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(FEATS, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, LATENT)

    def forward(self, x, a_norm):
        h = F.relu(a_norm @ self.lin1(x))
        return a_norm @ self.lin2(h)


adj, features = block_graph()
a_norm = normalize(adj)
encoder = GCNEncoder()
optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)

for epoch in range(6):
    z = encoder(features, a_norm)
    adj_logits = z @ z.t()
    adj_pred = (torch.sigmoid(adj_logits) > 0.5).float()
    loss = F.binary_cross_entropy(adj_pred, adj)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} reconstruction loss {loss.item():.4f}")
