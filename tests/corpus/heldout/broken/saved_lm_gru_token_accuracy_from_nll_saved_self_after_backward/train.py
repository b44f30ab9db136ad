"""Word-level GRU language model on a tiny synthetic grammar ("the cat sat on the mat"...).
Token accuracy and mean entropy are logged from the log-probabilities the loss already
computed, so the softmax is not evaluated twice."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SUBJECTS = ["the cat", "a dog", "the bird", "my friend"]
VERBS = ["sat on", "looked at", "ran to", "slept near"]
OBJECTS = ["the mat", "a tree", "the house", "the river"]
WORDS = sorted({w for group in (SUBJECTS, VERBS, OBJECTS) for p in group for w in p.split()} | {"."})
STOI = {w: i for i, w in enumerate(WORDS)}


def sentence_batch(n, length=12):
    rows = []
    for _ in range(n):
        words = []
        while len(words) < length + 1:
            parts = [SUBJECTS[torch.randint(4, ()).item()], VERBS[torch.randint(4, ()).item()],
                     OBJECTS[torch.randint(4, ()).item()]]
            words += " ".join(parts).split() + ["."]
        rows.append([STOI[w] for w in words[:length + 1]])
    data = torch.tensor(rows)
    return data[:, :-1], data[:, 1:]


class GRULM(nn.Module):
    def __init__(self, vocab, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.gru(self.embed(tokens))
        return self.out(h)


@dataclass
class Metrics:
    losses: list = field(default_factory=list)
    accuracy: list = field(default_factory=list)
    entropy: list = field(default_factory=list)


def train_epoch(model, optimizer, metrics, batches=3):
    for _ in range(batches):
        inputs, targets = sentence_batch(16)
        logits = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, len(WORDS)), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        log_probs = loss.grad_fn._saved_self
        metrics.losses.append(loss.item())
        metrics.accuracy.append((log_probs.argmax(-1) == targets.reshape(-1)).float().mean().item())
        metrics.entropy.append(-(log_probs.exp() * log_probs).sum(-1).mean().item())


model = GRULM(len(WORDS))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
metrics = Metrics()
for epoch in range(2):
    train_epoch(model, optimizer, metrics)
    print(f"epoch {epoch} loss {metrics.losses[-1]:.4f} acc {metrics.accuracy[-1]:.3f} "
          f"entropy {metrics.entropy[-1]:.3f}")
