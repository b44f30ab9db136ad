"""Two-tower retrieval with cosine scores and a full softmax over the catalogue."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, N_FEATS, DIM, TEMP = 30, 50, 8, 16, 0.1


class UserTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.id_emb = nn.Embedding(N_USERS, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM + N_FEATS, 32), nn.ReLU(), nn.Linear(32, DIM))

    def forward(self, user_ids, feats):
        return F.normalize(self.mlp(torch.cat([self.id_emb(user_ids), feats], dim=1)), dim=-1)


def main():
    torch.manual_seed(0)
    user_tower = UserTower()
    item_emb = nn.Embedding(N_ITEMS, DIM)
    optimizer = torch.optim.Adam(list(user_tower.parameters()) + list(item_emb.parameters()), lr=1e-2)
    user_feats = torch.randn(N_USERS, N_FEATS)
    liked = torch.randint(0, N_ITEMS, (N_USERS,))

    for step in range(5):
        item_table = F.normalize(item_emb.weight, dim=-1)
        users = torch.randint(0, N_USERS, (16,))
        scores = user_tower(users, user_feats[users]) @ item_table.T / TEMP
        loss = F.cross_entropy(scores, liked[users])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        recall = (scores.topk(10).indices == liked[users, None]).any(1).float().mean()
        print(f"step {step} loss {loss.item():.4f} recall@10 {recall.item():.3f}")


if __name__ == "__main__":
    main()
