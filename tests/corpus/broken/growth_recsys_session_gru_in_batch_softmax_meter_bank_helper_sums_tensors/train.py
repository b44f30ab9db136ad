"""Session-based next-item recommender (GRU4Rec style): a GRU reads the items clicked so far
in a session and scores the next click against the other sessions' next items in the batch
(in-batch sampled softmax). Item embeddings are shared between input and output."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from meters import MeterBank

N_ITEMS, DIM, SESSION_LEN, BATCH, REG = 60, 24, 6, 32, 1e-4


class SessionGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.gru = nn.GRU(DIM, DIM, batch_first=True)
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, clicks):
        _, h = self.gru(self.items(clicks))
        return self.proj(h[-1])


def make_sessions(n, gen):
    """Sessions walk through item 'categories' of 10 consecutive ids with a few jumps."""
    start = torch.randint(0, N_ITEMS, (n, 1), generator=gen)
    steps = torch.randint(1, 3, (n, SESSION_LEN), generator=gen)
    jumps = (torch.rand(n, SESSION_LEN, generator=gen) < 0.1) * 17
    return (start + torch.cumsum(steps + jumps, dim=1)) % N_ITEMS


def train(model, optimizer, batches, epochs):
    meters = MeterBank()
    for epoch in range(epochs):
        meters.reset()
        for sessions in batches:
            clicks, next_items = sessions[:, :-1], sessions[:, -1]
            user = model(clicks)
            candidates = model.items(next_items)
            logits = user @ candidates.t()
            loss = F.cross_entropy(logits, torch.arange(len(sessions)))
            reg = REG * (user.pow(2).sum(1).mean() + candidates.pow(2).sum(1).mean())
            optimizer.zero_grad()
            (loss + reg).backward()
            optimizer.step()
            hit = (logits.argmax(1) == torch.arange(len(sessions))).float().mean().item()
            meters.update(n=len(sessions), loss=loss, reg=reg, hit=hit)
        print(f"epoch {epoch} {meters.summary()}")


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    batches = [make_sessions(BATCH, gen) for _ in range(4)]
    model = SessionGRU()
    train(model, torch.optim.Adam(model.parameters(), lr=5e-3), batches, epochs=2)
