"""DeepWalk-style node embeddings on a small two-community graph. The graph is tiny, so
the skip-gram uses a full softmax over all nodes with the output layer tied to the node
table, plus a smoothness term that pulls walk neighbours together. Embeddings are kept in
the unit ball with nn.Embedding(max_norm=1.0)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, DIM, WALK_LEN, WINDOW = 24, 16, 8, 2


def community_graph():
    block = torch.arange(N_NODES) // (N_NODES // 2)
    prob = torch.where(block[:, None] == block[None, :], 0.35, 0.03)
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < prob).float(), 1)
    adj = adj + adj.t()
    adj[torch.arange(N_NODES), (torch.arange(N_NODES) + 1) % N_NODES] = 1.0
    return adj


def random_walks(adj, n_walks):
    starts = torch.randint(0, N_NODES, (n_walks,))
    walks = [starts]
    for _ in range(WALK_LEN - 1):
        walks.append(torch.multinomial(adj[walks[-1]], 1).squeeze(1))
    return torch.stack(walks, 1)


def skipgram_pairs(walks):
    centers, contexts = [], []
    for offset in range(1, WINDOW + 1):
        centers += [walks[:, :-offset].reshape(-1), walks[:, offset:].reshape(-1)]
        contexts += [walks[:, offset:].reshape(-1), walks[:, :-offset].reshape(-1)]
    return torch.cat(centers), torch.cat(contexts)


class NodeEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_NODES, DIM, max_norm=1.0)
        self.out_bias = nn.Parameter(torch.zeros(N_NODES))

    def forward(self, center, context, smooth_weight=0.1):
        h = self.emb(center)
        logits = h @ self.emb.weight.clone().t() + self.out_bias
        skipgram = F.cross_entropy(logits / 0.2, context)
        h_ctx = self.emb(context)
        smooth = (h - h_ctx).pow(2).sum(-1).mean()
        return skipgram + smooth_weight * smooth


def make_train_step(model, optimizer):
    def train_step(center, context):
        loss = model(center, context)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()
    return train_step


adj = community_graph()
model = NodeEmbedder()
step = make_train_step(model, torch.optim.Adam(model.parameters(), lr=0.05))
for epoch in range(5):
    center, context = skipgram_pairs(random_walks(adj, 32))
    print(f"epoch {epoch} loss {step(center, context):.4f}")
