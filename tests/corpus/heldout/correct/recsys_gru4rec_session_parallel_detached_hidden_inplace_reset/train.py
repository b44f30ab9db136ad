"""GRU4Rec-style session-parallel training: B sessions are processed side by side one click
at a time; when a session ends, the next session takes its lane and the lane's hidden state
is reset. The hidden state is carried from click to click (detached at every step) and the
next click is predicted with in-batch negatives.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GRU4Rec(nn.Module):
    def __init__(self, n_items, dim):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim)
        self.gru = nn.GRUCell(dim, dim)
        self.out_bias = nn.Embedding(n_items, 1)

    def forward(self, clicks, hidden):
        hidden = self.gru(self.item_emb(clicks), hidden)
        return hidden

    def in_batch_logits(self, hidden, targets):
        # score every lane's state against every lane's true next item
        return hidden @ self.item_emb(targets).T + self.out_bias(targets).T


def make_sessions(gen, n_sessions=14, n_items=30):
    sessions = []
    for _ in range(n_sessions):
        length = int(torch.randint(3, 7, (1,), generator=gen))
        start = int(torch.randint(0, n_items, (1,), generator=gen))
        step = int(torch.randint(1, 4, (1,), generator=gen))
        sessions.append([(start + k * step) % n_items for k in range(length)])
    return sessions


def lanes(sessions, batch):
    """Yield (clicks, next_clicks, reset_mask) for session-parallel mini-batches."""
    queue = list(range(len(sessions)))
    active = [queue.pop(0) for _ in range(batch)]
    pos = [0] * batch
    while True:
        clicks = [sessions[s][p] for s, p in zip(active, pos)]
        nexts = [sessions[s][p + 1] for s, p in zip(active, pos)]
        reset = [p == 0 for p in pos]
        yield torch.tensor(clicks), torch.tensor(nexts), torch.tensor(reset)
        for lane in range(batch):
            pos[lane] += 1
            if pos[lane] + 1 >= len(sessions[active[lane]]):
                if not queue:
                    return
                active[lane], pos[lane] = queue.pop(0), 0


def main():
    torch.manual_seed(0)
    sessions = make_sessions(torch.Generator().manual_seed(6))
    model = GRU4Rec(n_items=30, dim=16)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    hidden = torch.zeros(4, 16)
    losses = []
    for step, (clicks, nexts, reset) in enumerate(lanes(sessions, batch=4)):
        hidden = hidden.detach()
        hidden[reset] = 0.0          # in place on the detached state, before the new forward
        hidden = model(clicks, hidden)
        logits = model.in_batch_logits(hidden, nexts)
        loss = F.cross_entropy(logits, torch.arange(len(nexts)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if step >= 7:
            break
    for step, value in enumerate(losses):
        print(f"step {step} loss {value:.4f}")
    with torch.no_grad():
        print(f"param checksum {sum(p.sum() for p in model.parameters()).item():.4f}")
    return losses


if __name__ == "__main__":
    main()
