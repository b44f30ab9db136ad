"""Word-level language model over one long token stream, trained with truncated BPTT.
Two stacked GRUCells ("lower" and "upper") are unrolled by hand so that the per-layer state
can be inspected; the state of every layer is kept in a dict keyed by the layer's name and
handed from one BPTT window to the next."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMBED, HIDDEN, BATCH, BPTT = 50, 16, 32, 4, 6
LAYERS = ("lower", "upper")


class StackedCellLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMBED)
        self.cells = nn.ModuleDict({
            "lower": nn.GRUCell(EMBED, HIDDEN),
            "upper": nn.GRUCell(HIDDEN, HIDDEN),
        })
        self.decoder = nn.Linear(HIDDEN, VOCAB)

    def init_state(self, batch):
        return {name: torch.zeros(batch, HIDDEN) for name in LAYERS}

    def forward(self, tokens, state):
        logits = []
        for t in range(tokens.size(1)):
            inp = self.embed(tokens[:, t])
            for name in LAYERS:
                state[name] = self.cells[name](inp, state[name])
                inp = state[name]
            logits.append(self.decoder(inp))
        return torch.stack(logits, dim=1)


def batchify(stream, batch):
    n = stream.numel() // batch
    return stream[: n * batch].view(batch, n)


def synthetic_corpus(length):
    # a noisy arithmetic progression, so that the next token is predictable
    steps = torch.randint(1, 4, (length,))
    return torch.cumsum(steps, 0) % VOCAB


def train(epochs=1, max_windows=4):
    torch.manual_seed(0)
    model = StackedCellLM()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    data = batchify(synthetic_corpus(BATCH * (BPTT * max_windows + 1)), BATCH)
    for epoch in range(epochs):
        state = model.init_state(BATCH)
        for w, start in enumerate(range(0, data.size(1) - 1, BPTT)):
            if w == max_windows:
                break
            inputs = data[:, start:start + BPTT]
            targets = data[:, start + 1:start + 1 + BPTT]
            state = {name: h.detach() for name, h in state.items()}
            logits = model(inputs, state)
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            optimizer.step()
            norms = {k: round(v.norm().item(), 3) for k, v in state.items()}
            print(f"epoch {epoch} window {w} loss {loss.item():.4f} "
                  f"ppl {math.exp(loss.item()):.2f} state norms {norms}")


if __name__ == "__main__":
    train()
