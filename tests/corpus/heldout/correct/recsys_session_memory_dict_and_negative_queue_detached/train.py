"""Session recommender with two memories carried across batches: a per-user long-term
interest vector (EMA of past session vectors, in a dict keyed by user id) and a FIFO queue of
recent item embeddings used as extra negatives for the sampled softmax."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, SESSION_LEN, QUEUE_BATCHES = 8, 60, 16, 4, 3


class SessionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.gru = nn.GRU(DIM, DIM, batch_first=True)
        self.mix = nn.Linear(2 * DIM, DIM)

    def session_vector(self, items):
        _, h = self.gru(self.item_emb(items))
        return h.squeeze(0)

    def user_vector(self, short, long):
        return F.normalize(self.mix(torch.cat([short, long], dim=-1)), dim=-1)

    def item_vector(self, items):
        return F.normalize(self.item_emb(items), dim=-1)


class MemoryTrainer:
    def __init__(self, model, momentum=0.8, temperature=0.2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
        self.momentum, self.temperature = momentum, temperature
        self.user_memory = {}
        self.negatives = deque(maxlen=QUEUE_BATCHES)

    def recall_long_term(self, users):
        return torch.stack([self.user_memory.get(u, torch.zeros(DIM)) for u in users.tolist()])

    def step(self, users, sessions, positives):
        short = self.model.session_vector(sessions)
        query = self.model.user_vector(short, self.recall_long_term(users))
        pos = self.model.item_vector(positives)
        candidates = torch.cat([pos] + list(self.negatives), dim=0)
        logits = query @ candidates.T / self.temperature
        loss = F.cross_entropy(logits, torch.arange(len(users)))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        with torch.no_grad():
            for i, u in enumerate(users.tolist()):
                old = self.user_memory.get(u, short[i])
                self.user_memory[u] = self.momentum * old + (1 - self.momentum) * short[i]
        self.negatives.append(pos.detach())
        return loss.item()


def make_batches(n=6, batch=8):
    taste = torch.randint(0, N_ITEMS, (N_USERS, SESSION_LEN + 1))
    out = []
    for _ in range(n):
        users = torch.randperm(N_USERS)[:batch]
        seqs = taste[users].clone()
        flip = torch.rand(seqs.shape) < 0.15
        seqs[flip] = torch.randint(0, N_ITEMS, (int(flip.sum()),))
        out.append((users, seqs[:, :-1], seqs[:, -1]))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SessionModel()
    trainer = MemoryTrainer(model)
    for i, batch in enumerate(make_batches()):
        loss = trainer.step(*batch)
        print(f"batch {i}: loss {loss:.4f} negatives {sum(len(n) for n in trainer.negatives)}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"users remembered {len(trainer.user_memory)} checksum {checksum:.6f}")
