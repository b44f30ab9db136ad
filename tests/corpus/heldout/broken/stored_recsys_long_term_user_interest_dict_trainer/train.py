"""Session-based next-item recommender with long- and short-term interest: a GRU encodes the
current session (short term), and a per-user long-term interest vector, an exponential
average of the user's past session vectors, is mixed in through a learned gate."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, SESSION_LEN = 6, 40, 16, 5


class InterestRecommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.session_gru = nn.GRU(DIM, DIM, batch_first=True)
        self.gate = nn.Linear(2 * DIM, DIM)

    def encode_session(self, items):
        _, h = self.session_gru(self.item_emb(items))
        return h.squeeze(0)

    def score(self, short_term, long_term):
        g = torch.sigmoid(self.gate(torch.cat([short_term, long_term], dim=-1)))
        user_vec = g * short_term + (1 - g) * long_term
        return user_vec @ self.item_emb.weight.T


class Trainer:
    def __init__(self, model, momentum=0.7):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
        self.momentum = momentum
        self.user_memory = {}

    def long_term(self, user_ids):
        zero = torch.zeros(DIM)
        return torch.stack([self.user_memory.get(u, zero) for u in user_ids.tolist()])

    def train_step(self, user_ids, sessions, next_items):
        short = self.model.encode_session(sessions)
        logits = self.model.score(short, self.long_term(user_ids))
        loss = F.cross_entropy(logits, next_items)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for i, u in enumerate(user_ids.tolist()):
            previous = self.user_memory.get(u, short[i])
            self.user_memory[u] = self.momentum * previous + (1 - self.momentum) * short[i]
        hit = (logits.topk(5, dim=1).indices == next_items[:, None]).any(dim=1).float().mean()
        return loss.item(), hit.item()


def make_batches(n_batches=5, batch_size=8):
    favourite = torch.randint(0, N_ITEMS, (N_USERS, SESSION_LEN + 1))
    batches = []
    for _ in range(n_batches):
        users = torch.randint(0, N_USERS, (batch_size,))
        seqs = favourite[users].clone()
        noise = torch.rand(seqs.shape) < 0.2
        seqs[noise] = torch.randint(0, N_ITEMS, (int(noise.sum()),))
        batches.append((users, seqs[:, :-1], seqs[:, -1]))
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(InterestRecommender())
    for step, (users, sessions, targets) in enumerate(make_batches()):
        loss, hit = trainer.train_step(users, sessions, targets)
        print(f"step {step} loss {loss:.4f} hit@5 {hit:.3f} users in memory {len(trainer.user_memory)}")
