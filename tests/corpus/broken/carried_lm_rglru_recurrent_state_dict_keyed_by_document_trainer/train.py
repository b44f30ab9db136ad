"""Griffin-style recurrent LM (a gated linear recurrence, RG-LRU) trained on several long
documents read in chunks.  The recurrent state of each document is kept in a dict keyed by
document id so that a chunk continues from where that document stopped."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, CHUNK = 32, 16, 6


class RGLRU(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gate_a = nn.Linear(dim, dim)
        self.gate_x = nn.Linear(dim, dim)
        self.log_decay = nn.Parameter(torch.full((dim,), -0.5))

    def forward(self, x, state):
        outputs = []
        for t in range(x.shape[1]):
            xt = x[:, t]
            a = torch.exp(-F.softplus(self.log_decay) * torch.sigmoid(self.gate_a(xt)))
            state = a * state + torch.sqrt(1 - a ** 2) * (torch.sigmoid(self.gate_x(xt)) * xt)
            outputs.append(state)
        return torch.stack(outputs, 1), state


class RecurrentLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.rglru = RGLRU(DIM)
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens, state):
        h, state = self.rglru(self.embed(tokens), state)
        return self.head(self.norm(h)), state


class Trainer:
    def __init__(self, docs, lr=3e-3):
        self.docs = docs
        self.model = RecurrentLM()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        self.doc_states = {}
        self.cursor = {doc_id: 0 for doc_id in docs}

    def next_chunk(self, doc_id):
        start = self.cursor[doc_id]
        self.cursor[doc_id] = start + CHUNK
        text = self.docs[doc_id]
        return text[:, start:start + CHUNK], text[:, start + 1:start + CHUNK + 1]

    def train_step(self, doc_id):
        inputs, targets = self.next_chunk(doc_id)
        state = self.doc_states.get(doc_id)
        if state is None:
            state = torch.zeros(inputs.shape[0], DIM)
        logits, self.doc_states[doc_id] = self.model(inputs, state)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, rounds=3):
        for r in range(rounds):
            for doc_id in self.docs:
                loss = self.train_step(doc_id)
                print(f"round {r} doc {doc_id}: loss {loss:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = {f"doc{i}": torch.randint(0, VOCAB, (2, 4 * CHUNK + 1)) for i in range(2)}
    Trainer(corpus).fit()
