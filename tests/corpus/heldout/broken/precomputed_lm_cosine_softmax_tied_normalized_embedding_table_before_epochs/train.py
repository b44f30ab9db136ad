"""Character-level GRU language model with a tied cosine-softmax output layer: logits are the
scaled cosine similarity between the hidden state and the (normalised) input embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog while the cat sleeps by the warm fire "
        "and the bird sings a song about the wind and the rain on the hills ") * 2
chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in TEXT])
VOCAB, EMB, SEQ, BATCH, EPOCHS, STEPS = len(chars), 24, 16, 4, 2, 3

torch.manual_seed(0)


class CosineCharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.GRU(EMB, EMB, batch_first=True)
        self.proj = nn.Linear(EMB, EMB)
        self.log_scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, idx):
        h, _ = self.rnn(self.embed(idx))
        return F.normalize(self.proj(h), dim=-1)


def sample_batch():
    starts = torch.randint(0, len(data) - SEQ - 1, (BATCH,))
    x = torch.stack([data[s:s + SEQ] for s in starts])
    y = torch.stack([data[s + 1:s + SEQ + 1] for s in starts])
    return x, y


model = CosineCharLM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

# the class prototypes are the unit-norm embedding rows (tied output layer)
class_weights = F.normalize(model.embed.weight, dim=-1)

for epoch in range(EPOCHS):
    total = 0.0
    for step in range(STEPS):
        x, y = sample_batch()
        queries = model(x)
        logits = model.log_scale.exp() * queries @ class_weights.t()
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    print(f"epoch {epoch} mean loss {total / STEPS:.4f} scale {model.log_scale.exp().item():.3f}")
