"""Listwise re-ranker for a small catalogue: each user comes with 12 candidate items
(retrieved upstream) and graded relevance labels; the scorer is trained to maximise a
smooth approximation of NDCG and evaluated with NDCG@5."""
import torch
import torch.nn as nn

from metrics import approx_ndcg, hard_ndcg_at_k

N_USERS, N_ITEMS, N_CAND, DIM = 64, 200, 12, 16


class Reranker(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.mlp = nn.Sequential(nn.Linear(3 * DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, users, candidates):
        u = self.user_emb(users)[:, None, :].expand(-1, candidates.size(1), -1)
        v = self.item_emb(candidates)
        return self.mlp(torch.cat([u, v, u * v], dim=-1)).squeeze(-1)


def synthetic_logs(seed=0):
    g = torch.Generator().manual_seed(seed)
    taste = torch.randn(N_USERS, 4, generator=g)
    genre = torch.randn(N_ITEMS, 4, generator=g)
    users = torch.arange(N_USERS)
    candidates = torch.stack([torch.randperm(N_ITEMS, generator=g)[:N_CAND]
                              for _ in range(N_USERS)])
    affinity = (taste[:, None, :] * genre[candidates]).sum(-1)
    relevance = torch.bucketize(affinity, torch.tensor([-1.0, 0.5, 1.5])).float()
    return users, candidates, relevance


def main(epochs=3, batch_size=16):
    torch.manual_seed(0)
    users, candidates, relevance = synthetic_logs()
    model = Reranker()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(epochs):
        perm = torch.randperm(N_USERS)
        for start in range(0, N_USERS, batch_size):
            idx = perm[start:start + batch_size]
            scores = model(users[idx], candidates[idx])
            loss = 1.0 - approx_ndcg(scores, relevance[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            ndcg5 = hard_ndcg_at_k(model(users, candidates), relevance)
        print(f"epoch {epoch} loss {loss.item():.4f} ndcg@5 {ndcg5:.4f}")
    return ndcg5


if __name__ == "__main__":
    main()
