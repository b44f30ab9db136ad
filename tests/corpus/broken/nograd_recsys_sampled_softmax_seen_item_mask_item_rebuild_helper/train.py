"""Implicit-feedback recommender (matrix factorisation with item biases) trained with a
sampled softmax: for each (user, clicked item) the positive competes against a few
uniformly sampled items; sampled items the user already clicked are masked out."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from sampling import candidate_logits, sample_candidates

N_USERS, N_ITEMS, DIM, K_NEG = 20, 40, 8, 5


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def forward(self, users, items):
        return (self.user(users) * self.item(items)).sum(-1) + self.item_bias(items).squeeze(-1)


def click_log(gen):
    taste = torch.randint(0, 4, (N_USERS,), generator=gen)
    users = torch.randint(0, N_USERS, (96,), generator=gen)
    items = taste[users] * 10 + torch.randint(0, 10, (96,), generator=gen)
    seen = {u: set() for u in range(N_USERS)}
    for u, i in zip(users.tolist(), items.tolist()):
        seen[u].add(i)
    return users, items, seen


def train(model, log, epochs=2, batch_size=32):
    users, items, seen = log
    gen = torch.Generator().manual_seed(1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    for epoch in range(epochs):
        perm = torch.randperm(users.size(0), generator=gen)
        for start in range(0, users.size(0), batch_size):
            idx = perm[start:start + batch_size]
            candidates = sample_candidates(items[idx], N_ITEMS, K_NEG, gen)
            logits = candidate_logits(model, users[idx], candidates, seen)
            loss = F.cross_entropy(logits, torch.zeros(idx.size(0), dtype=torch.long))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} sampled-softmax loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = train(MF(), click_log(torch.Generator().manual_seed(2)))
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
