"""Session-parallel GRU4Rec-style next-click model. Click events from many users arrive
interleaved; each mini-batch holds the next click of a few active users. Every user's GRU
state is kept in a dict between mini-batches (stored detached) and dropped when the
user's session ends, so the next session starts from zeros."""
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, EMB, HID, USERS_PER_BATCH, BATCHES = 40, 16, 24, 6, 8


@dataclass
class Click:
    user: int
    item: int
    next_item: int
    session_end: bool


def click_stream(rng, n_users=10, per_user=5):
    pending = {u: [rng.randrange(N_ITEMS)] for u in range(n_users)}
    for u in pending:
        for _ in range(per_user):
            prev = pending[u][-1]
            pending[u].append((prev + rng.choice([1, 1, 2, 7])) % N_ITEMS)
    while pending:
        users = rng.sample(sorted(pending), min(USERS_PER_BATCH, len(pending)))
        batch = []
        for u in users:
            seq = pending[u]
            batch.append(Click(u, seq[0], seq[1], len(seq) == 2))
            seq.pop(0)
            if len(seq) < 2:
                del pending[u]
        yield batch


class SessionGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(N_ITEMS, EMB)
        self.cell = nn.GRUCell(EMB, HID)
        self.to_item_space = nn.Linear(HID, EMB)

    def forward(self, items, h):
        h = self.cell(self.items(items), h)
        scores = self.to_item_space(h) @ self.items.weight.t()
        return scores, h


def train():
    torch.manual_seed(0)
    rng = random.Random(5)
    model = SessionGRU()
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    user_state = {}
    zero = torch.zeros(HID)
    hits, seen = 0, 0
    for step, batch in enumerate(click_stream(rng)):
        if step == BATCHES:
            break
        items = torch.tensor([c.item for c in batch])
        targets = torch.tensor([c.next_item for c in batch])
        h0 = torch.stack([user_state.get(c.user, zero) for c in batch])
        scores, h = model(items, h0)
        loss = F.cross_entropy(scores, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for row, click in enumerate(batch):
            if click.session_end:
                user_state.pop(click.user, None)
            else:
                user_state[click.user] = h[row].detach()
        top5 = scores.topk(5, dim=-1).indices
        hits += (top5 == targets.unsqueeze(1)).any(dim=1).sum().item()
        seen += len(batch)
        print(f"batch {step} users {len(batch)} live states {len(user_state)} "
              f"loss {loss.item():.4f} recall@5 {hits / seen:.3f}")
    checksum = sum(p.detach().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")
    return hits / seen


if __name__ == "__main__":
    train()
