"""Streaming next-item recommender with a per-user recurrent state.

Interactions arrive in time order in small batches. Each user has a state vector that a
GRUCell updates with the embedding of the item the user just consumed; the user's next item
is scored from the updated state with a sampled softmax (1 positive, 8 random negatives).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, BATCH, N_NEG = 12, 40, 16, 6, 8


def synthetic_stream(n_events, generator):
    users = torch.randint(0, N_USERS, (n_events,), generator=generator)
    stride = users % 4 + 1                       # every user walks the catalogue at its own pace
    prev_items = torch.randint(0, N_ITEMS, (n_events,), generator=generator)
    next_items = (prev_items + stride) % N_ITEMS
    return users, prev_items, next_items


class StreamingRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.updater = nn.GRUCell(DIM, DIM)
        self.query = nn.Linear(DIM, DIM)

    def step_state(self, user_vecs, item_ids):
        return self.updater(self.item_emb(item_ids), user_vecs)

    def score(self, user_vecs, item_ids):
        q = self.query(user_vecs)                              # (B, D)
        return torch.einsum("bd,bkd->bk", q, self.item_emb(item_ids))


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    users, prev_items, next_items = synthetic_stream(BATCH * 6, gen)
    model = StreamingRecommender()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

    user_state = torch.zeros(N_USERS, DIM)
    history = []
    for start in range(0, users.numel(), BATCH):
        u = users[start:start + BATCH]
        prev, nxt = prev_items[start:start + BATCH], next_items[start:start + BATCH]
        neg = torch.randint(0, N_ITEMS, (u.numel(), N_NEG), generator=gen)
        candidates = torch.cat([nxt.unsqueeze(1), neg], dim=1)

        h = model.step_state(user_state[u], prev)
        logits = model.score(h, candidates)
        loss = F.cross_entropy(logits, torch.zeros(u.numel(), dtype=torch.long))

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        user_state = user_state.index_copy(0, u, h.detach())
        hit = (logits.argmax(dim=1) == 0).float().mean().item()
        history.append(loss.item())
        print(f"events {start:2d}-{start + u.numel() - 1:2d} loss {loss.item():.4f} hit@1 {hit:.2f}")
    return history


if __name__ == "__main__":
    losses = main()
    print(f"final loss {losses[-1]:.4f}")
