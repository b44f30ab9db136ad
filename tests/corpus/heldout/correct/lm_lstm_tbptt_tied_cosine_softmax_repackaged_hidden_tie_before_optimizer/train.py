"""Word-level LSTM LM with a tied cosine-softmax output: the output prototypes are the
normalised input embeddings (tied before the optimizer is built and re-normalised every step),
trained with truncated BPTT where the carried (h, c) is detached at every batch boundary."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, BATCH, BPTT, STEPS = 40, 24, 4, 8, 6


def repackage(hidden):
    return tuple(h.detach() for h in hidden)


class TiedCosineLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, EMB, batch_first=True)
        self.out = nn.Linear(EMB, VOCAB, bias=False)
        self.log_scale = nn.Parameter(torch.tensor(2.5))

    def tie(self):
        self.out.weight = self.embed.weight

    def forward(self, tokens, hidden):
        h, hidden = self.lstm(self.embed(tokens), hidden)
        prototypes = F.normalize(self.out.weight, dim=-1)
        logits = self.log_scale.exp() * F.normalize(h, dim=-1) @ prototypes.t()
        return logits, hidden


def stream(n_tokens):
    ids = [1]
    gen = torch.Generator().manual_seed(11)
    for _ in range(n_tokens - 1):
        nxt = (ids[-1] * 7 + 3) % VOCAB if torch.rand(1, generator=gen) < 0.85 else \
            int(torch.randint(VOCAB, (1,), generator=gen))
        ids.append(nxt)
    data = torch.tensor(ids)
    return data[:(len(data) // BATCH) * BATCH].view(BATCH, -1)


def main():
    torch.manual_seed(0)
    data = stream(BATCH * (STEPS * BPTT + 1) + BATCH)
    model = TiedCosineLM()
    model.tie()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    hidden = (torch.zeros(1, BATCH, EMB), torch.zeros(1, BATCH, EMB))
    for step in range(STEPS):
        x = data[:, step * BPTT:(step + 1) * BPTT]
        y = data[:, step * BPTT + 1:(step + 1) * BPTT + 1]
        hidden = repackage(hidden)
        logits, hidden = model(x, hidden)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} ppl {math.exp(loss.item()):.2f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"tied {model.out.weight is model.embed.weight} checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
