"""Character-level language model: one causal self-attention block with rotary position
embeddings whose frequencies are learned, trained on a tiny repeated text."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from rotary import RotaryEmbedding

TEXT = "the quick brown fox jumps over the lazy dog. " * 8
D_MODEL, N_HEADS, CONTEXT, BATCH, STEPS = 32, 4, 16, 8, 5


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D_MODEL, 3 * D_MODEL)
        self.proj = nn.Linear(D_MODEL, D_MODEL)
        self.rotary = RotaryEmbedding(D_MODEL // N_HEADS, learned_freq=True)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, N_HEADS, -1).permute(2, 0, 3, 1, 4)
        q, k = self.rotary.rotate(q), self.rotary.rotate(k)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(out.transpose(1, 2).reshape(b, t, D_MODEL))


class TinyCharLM(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.embed = nn.Embedding(vocab, D_MODEL)
        self.ln1, self.ln2 = nn.LayerNorm(D_MODEL), nn.LayerNorm(D_MODEL)
        self.attn = CausalSelfAttention()
        self.mlp = nn.Sequential(nn.Linear(D_MODEL, 4 * D_MODEL), nn.GELU(),
                                 nn.Linear(4 * D_MODEL, D_MODEL))
        self.lm_head = nn.Linear(D_MODEL, vocab)

    def forward(self, idx):
        x = self.embed(idx)
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        return self.lm_head(x)


def get_batch(data):
    starts = torch.randint(0, len(data) - CONTEXT - 1, (BATCH,))
    x = torch.stack([data[s:s + CONTEXT] for s in starts])
    y = torch.stack([data[s + 1:s + CONTEXT + 1] for s in starts])
    return x, y


def main():
    torch.manual_seed(0)
    vocab = sorted(set(TEXT))
    data = torch.tensor([vocab.index(c) for c in TEXT])
    model = TinyCharLM(len(vocab))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    for step in range(STEPS):
        x, y = get_batch(data)
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, len(vocab)), y.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    freqs = model.attn.rotary.freqs
    print(f"learned freqs min {freqs.min().item():.5f} max {freqs.max().item():.5f}")


if __name__ == "__main__":
    main()
