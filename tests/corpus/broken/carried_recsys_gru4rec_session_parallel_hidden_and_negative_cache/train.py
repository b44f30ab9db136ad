"""GRU4Rec-style next-click recommender trained with session-parallel mini-batches:
each of BATCH lanes walks through one session at a time and picks up the next session
when its current one ends. Scores are cosine similarities against the in-batch targets
plus a small store of recent target items used as extra negatives."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, EMB, HID, BATCH, STORE, TEMP = 40, 16, 24, 6, 12, 0.2


class GRU4Rec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, EMB)
        self.gru = nn.GRUCell(EMB, HID)
        self.to_item_space = nn.Linear(HID, EMB)

    def forward(self, items, hidden):
        hidden = self.gru(self.item_emb(items), hidden)
        return F.normalize(self.to_item_space(hidden), dim=1), hidden

    def item_vectors(self, items):
        return F.normalize(self.item_emb(items), dim=1)


def make_sessions(n, g):
    """Sessions browse a 'category' of 8 consecutive item ids, mostly in order."""
    sessions = []
    for _ in range(n):
        start = int(torch.randint(0, N_ITEMS - 8, (1,), generator=g))
        length = int(torch.randint(3, 7, (1,), generator=g))
        steps = torch.randint(1, 3, (length,), generator=g).cumsum(0)
        sessions.append(((start + steps) % N_ITEMS).tolist())
    return sessions


def session_parallel(sessions, batch):
    """Yields (clicked, next_clicked, starts): starts marks lanes that began a new session."""
    queue = iter(sessions)
    lanes = [next(queue) for _ in range(batch)]
    pos = [0] * batch
    while True:
        starts = torch.tensor([p == 0 for p in pos])
        yield (torch.tensor([s[p] for s, p in zip(lanes, pos)]),
               torch.tensor([s[p + 1] for s, p in zip(lanes, pos)]), starts)
        for i in range(batch):
            pos[i] += 1
            if pos[i] + 1 >= len(lanes[i]):
                lanes[i], pos[i] = next(queue, None), 0
                if lanes[i] is None:
                    return


def main(max_steps=8):
    torch.manual_seed(0)
    model = GRU4Rec()
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.1)
    sessions = make_sessions(40, torch.Generator().manual_seed(1))
    hidden = torch.zeros(BATCH, HID)
    neg_store = torch.zeros(0, EMB)
    for step, (clicked, target, starts) in enumerate(session_parallel(sessions, BATCH)):
        hidden = hidden * (~starts).float().unsqueeze(1)  # new session: fresh state
        user, hidden = model(clicked, hidden)
        target_vecs = model.item_vectors(target)
        candidates = torch.cat([target_vecs, neg_store])
        logits = user @ candidates.t() / TEMP
        loss = F.cross_entropy(logits, torch.arange(BATCH))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        neg_store = torch.cat([neg_store, target_vecs])[-STORE:]
        print(f"step {step}: loss {loss.item():.4f} negatives {candidates.shape[0] - 1}")
        if step + 1 == max_steps:
            break
    return model


if __name__ == "__main__":
    main()
