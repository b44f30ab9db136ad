"""Character-level language model on a tiny repeated corpus; two gated-attention blocks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import Block

torch.manual_seed(0)
TEXT = "the quick brown fox jumps over the lazy dog. " * 20
VOCAB = sorted(set(TEXT))
DATA = torch.tensor([VOCAB.index(c) for c in TEXT])


class TinyLM(nn.Module):
    def __init__(self, vocab, d_model=32, n_heads=4, n_layers=2, ctx=24):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(0.02 * torch.randn(ctx, d_model))
        self.blocks = nn.Sequential(*[Block(d_model, n_heads) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx):
        x = self.tok(idx) + self.pos[: idx.shape[1]]
        return self.head(self.ln_f(self.blocks(x)))


def get_batch(bs=8, ctx=24):
    starts = torch.randint(0, len(DATA) - ctx - 1, (bs,))
    x = torch.stack([DATA[s:s + ctx] for s in starts])
    y = torch.stack([DATA[s + 1:s + ctx + 1] for s in starts])
    return x, y


def main():
    model = TinyLM(len(VOCAB))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    for it in range(5):
        x, y = get_batch()
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
