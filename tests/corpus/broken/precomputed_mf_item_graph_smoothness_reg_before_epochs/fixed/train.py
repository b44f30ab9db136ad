"""Matrix factorisation for implicit feedback trained with BPR, plus a graph smoothness
penalty that pulls together the embeddings of items that are often bought together."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM = 30, 40, 8
REG_WEIGHT = 0.1


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.items = nn.Embedding(N_ITEMS, DIM)
        nn.init.normal_(self.users.weight, std=0.1)
        nn.init.normal_(self.items.weight, std=0.1)

    def score(self, u, i):
        return (self.users(u) * self.items(i)).sum(-1)


def graph_smoothness(item_emb, co_edges):
    src, dst = co_edges
    return (item_emb[src] - item_emb[dst]).pow(2).sum(-1).mean()


def main():
    torch.manual_seed(0)
    interactions = torch.stack([torch.randint(0, N_USERS, (120,)), torch.randint(0, N_ITEMS, (120,))])
    co_edges = torch.stack([torch.arange(0, N_ITEMS - 1), torch.arange(1, N_ITEMS)])
    model = MF()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    for epoch in range(2):
        perm = torch.randperm(interactions.size(1))
        for start in range(0, 120, 40):
            users, pos = interactions[:, perm[start:start + 40]]
            neg = torch.randint(0, N_ITEMS, (40,))
            bpr = -F.logsigmoid(model.score(users, pos) - model.score(users, neg)).mean()
            reg = REG_WEIGHT * graph_smoothness(model.items.weight, co_edges)
            loss = bpr + reg
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} bpr {bpr.item():.4f} reg {reg.item():.4f}")


if __name__ == "__main__":
    main()
