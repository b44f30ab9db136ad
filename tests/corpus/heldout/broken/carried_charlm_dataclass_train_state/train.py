"""Character-level LSTM language model on a tiny corpus, trained with truncated windows.
The training bookkeeping (step counter, recurrent state, loss history) lives in a small
dataclass that train() updates as it goes."""
import math
from dataclasses import dataclass, field
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

CORPUS = ("she sells sea shells by the sea shore and the shells she sells "
          "are surely sea shells so if she sells shells on the shore ")
SEQ_LEN, BATCH = 8, 4


class CharLM(nn.Module):
    def __init__(self, vocab_size, emb=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.decoder = nn.Linear(hidden, vocab_size)

    def forward(self, tokens, state=None):
        out, state = self.lstm(self.embed(tokens), state)
        return self.decoder(out), state


@dataclass
class TrainState:
    step: int = 0
    hidden: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
    losses: list = field(default_factory=list)


def encode(text):
    vocab = sorted(set(text))
    stoi = {ch: i for i, ch in enumerate(vocab)}
    return torch.tensor([stoi[ch] for ch in text]), len(vocab)


def batchify(ids, batch):
    cols = ids.numel() // batch
    return ids[:cols * batch].view(batch, cols)


def train(model, data, optimizer, state, epochs):
    for epoch in range(epochs):
        state.hidden = None  # new pass over the corpus
        for start in range(0, data.size(1) - SEQ_LEN - 1, SEQ_LEN):
            inputs = data[:, start:start + SEQ_LEN]
            targets = data[:, start + 1:start + SEQ_LEN + 1]
            logits, state.hidden = model(inputs, state.hidden)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            optimizer.step()
            state.step += 1
            state.losses.append(loss.item())
        recent = state.losses[-3:]
        print(f"epoch {epoch} steps {state.step} ppl {math.exp(sum(recent) / len(recent)):.3f}")
    return state


def main():
    torch.manual_seed(0)
    ids, vocab_size = encode(CORPUS)
    data = batchify(ids, BATCH)
    model = CharLM(vocab_size)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    state = train(model, data, optimizer, TrainState(), epochs=2)
    print(f"final loss {state.losses[-1]:.4f}")


if __name__ == "__main__":
    main()
