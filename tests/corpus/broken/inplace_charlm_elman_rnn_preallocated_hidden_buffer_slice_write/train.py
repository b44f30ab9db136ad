"""Character-level language model with a hand-written Elman RNN (written out so the
recurrent weight can be inspected and regularised). Hidden states for the whole sequence
go into one preallocated tensor that the decoder reads at the end."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog. "
        "pack my box with five dozen liquor jugs. "
        "how vexingly quick daft zebras jump. ") * 6
SEQ_LEN, BATCH, EMB, HIDDEN = 24, 8, 16, 48

torch.manual_seed(0)
vocab = sorted(set(TEXT))
stoi = {ch: i for i, ch in enumerate(vocab)}
data = torch.tensor([stoi[ch] for ch in TEXT], dtype=torch.long)


class ElmanCharLM(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, EMB)
        self.input_proj = nn.Linear(EMB, HIDDEN)
        self.W_hh = nn.Parameter(torch.eye(HIDDEN) * 0.5 + 0.05 * torch.randn(HIDDEN, HIDDEN))
        self.decoder = nn.Linear(HIDDEN, vocab_size)

    def forward(self, tokens):
        steps, batch = tokens.shape
        xh = self.input_proj(self.embed(tokens))
        hiddens = xh.new_zeros(steps + 1, batch, HIDDEN)
        for t in range(steps):
            hiddens[t + 1] = torch.tanh(xh[t] + hiddens[t] @ self.W_hh)
        return self.decoder(hiddens[1:])


def batches(gen):
    starts = torch.randint(0, len(data) - SEQ_LEN - 1, (BATCH,), generator=gen)
    x = torch.stack([data[s:s + SEQ_LEN] for s in starts], dim=1)
    y = torch.stack([data[s + 1:s + SEQ_LEN + 1] for s in starts], dim=1)
    return x, y


model = ElmanCharLM(len(vocab))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
gen = torch.Generator().manual_seed(2)

for epoch in range(3):
    total, count = 0.0, 0
    for _ in range(2):
        inputs, targets = batches(gen)
        logits = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, len(vocab)), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f} ppl {math.exp(total / count):.2f}")
