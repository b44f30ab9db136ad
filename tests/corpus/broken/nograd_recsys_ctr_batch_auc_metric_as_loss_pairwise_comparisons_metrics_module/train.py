"""CTR ranker for a small catalogue: user and item embeddings feed an MLP scorer.

The offline dashboard reports AUC, so this version optimises it directly:
loss = 1 - batch AUC, computed by the same metric the report uses.
"""
import torch
import torch.nn as nn

from metrics import batch_auc, hit_rate

torch.manual_seed(7)
N_USERS, N_ITEMS, DIM = 24, 40, 8


class CTRScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, u, i):
        return self.mlp(torch.cat([self.users(u), self.items(i)], dim=-1)).squeeze(-1)


def make_log(n=96):
    u = torch.randint(0, N_USERS, (n,))
    i = torch.randint(0, N_ITEMS, (n,))
    taste = torch.sin(u.float() * 0.7) * torch.cos(i.float() * 0.3)
    clicks = (taste + 0.2 * torch.randn(n) > 0).float()
    return u, i, clicks


def train(epochs=3, batch=32):
    model = CTRScorer()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    u, i, clicks = make_log()
    for epoch in range(epochs):
        perm = torch.randperm(len(u))
        for start in range(0, len(u), batch):
            idx = perm[start:start + batch]
            scores = model(u[idx], i[idx])
            auc = batch_auc(scores, clicks[idx])
            loss = 1.0 - auc
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            all_scores = model(u, i)
        print(f"epoch {epoch} auc {batch_auc(all_scores, clicks).item():.4f} "
              f"hit@5 {hit_rate(all_scores, clicks):.3f}")
    return model


if __name__ == "__main__":
    trained = train()
    print("checksum", sum(p.sum().item() for p in trained.parameters()))
