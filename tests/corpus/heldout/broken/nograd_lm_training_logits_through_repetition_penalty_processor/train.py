"""Next-character model for product titles. Training applies the same repetition penalty
the demo sampler uses, so that the model is fitted to the distribution it is sampled from."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from generation_utils import RepetitionPenalty, sample

TITLES = ["red cotton shirt", "blue denim jacket", "wool winter scarf", "leather belt brown",
          "cotton summer dress", "black running shoes", "silk evening gown"]
VOCAB = sorted(set("".join(TITLES)))
STOI = {c: i for i, c in enumerate(VOCAB)}
CONTEXT = 6


class CharGRU(nn.Module):
    def __init__(self, vocab, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ctx):
        h, _ = self.gru(self.embed(ctx))
        return self.out(h[:, -1])


def windows():
    ctx, nxt = [], []
    for title in TITLES:
        ids = [STOI[c] for c in title]
        for i in range(len(ids) - CONTEXT):
            ctx.append(ids[i:i + CONTEXT])
            nxt.append(ids[i + CONTEXT])
    return torch.tensor(ctx), torch.tensor(nxt)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    ctx, nxt = windows()
    model = CharGRU(len(VOCAB))
    penalty = RepetitionPenalty()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(5):
        idx = torch.randint(0, len(ctx), (32,), generator=gen)
        logits = penalty(model(ctx[idx]), ctx[idx])
        loss = F.cross_entropy(logits, nxt[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} nll {loss.item():.4f}")
    demo = sample(model, ctx[:1], 8, penalty, gen)
    print("sample:", "".join(VOCAB[i] for i in demo[0].tolist()))
    return loss.item()


if __name__ == "__main__":
    main()
