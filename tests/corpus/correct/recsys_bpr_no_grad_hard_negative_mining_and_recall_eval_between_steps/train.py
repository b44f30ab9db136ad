"""Implicit-feedback recommender (user/item embeddings + a small MLP tower on the item side)
trained with BPR. Every step mines hard negatives by scoring the whole catalogue under
torch.no_grad(), and every other step evaluates recall@5 on held-out interactions, also
without autograd, in the middle of training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(29)
N_USERS, N_ITEMS, DIM, STEPS, K = 30, 60, 12, 8, 5


class Recommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.item_tower = nn.Sequential(nn.Linear(DIM, DIM), nn.Tanh(), nn.Dropout(0.1),
                                        nn.Linear(DIM, DIM, bias=False))
        nn.init.normal_(self.user_emb.weight, std=0.1)
        nn.init.normal_(self.item_emb.weight, std=0.1)

    def item_vectors(self, items=None):
        e = self.item_emb.weight if items is None else self.item_emb(items)
        return e + self.item_tower(e)

    def score(self, users, items):
        return (self.user_emb(users) * self.item_vectors(items)).sum(-1)


def interactions():
    taste = torch.randint(0, 3, (N_USERS,))
    genre = torch.arange(N_ITEMS) % 3
    liked = (genre[None, :] == taste[:, None]) & (torch.rand(N_USERS, N_ITEMS) < 0.5)
    held_out = liked & (torch.rand(N_USERS, N_ITEMS) < 0.3)
    return liked & ~held_out, held_out


@torch.no_grad()
def mine_hard_negatives(model, users, train_pos):
    scores = model.user_emb(users) @ model.item_vectors().T
    scores[train_pos[users]] = float("-inf")
    return scores.topk(3, dim=1).indices[:, torch.randint(0, 3, (1,)).item()]


def recall_at_k(model, train_pos, held_out):
    model.eval()
    with torch.no_grad():
        scores = model.user_emb.weight @ model.item_vectors().T
        scores[train_pos] = float("-inf")
        top = scores.topk(K, dim=1).indices
        hits = held_out.gather(1, top).sum(1).float()
        recall = (hits / held_out.sum(1).clamp(min=1)).mean().item()
    model.train()
    return recall


def main():
    train_pos, held_out = interactions()
    users_idx, items_idx = train_pos.nonzero(as_tuple=True)
    model = Recommender()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(STEPS):
        pick = torch.randint(0, len(users_idx), (64,))
        users, pos = users_idx[pick], items_idx[pick]
        neg = mine_hard_negatives(model, users, train_pos)
        loss = -F.logsigmoid(model.score(users, pos) - model.score(users, neg)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        line = f"step {step} bpr {loss.item():.4f}"
        if step % 2 == 1:
            line += f" recall@{K} {recall_at_k(model, train_pos, held_out):.4f}"
        print(line)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
