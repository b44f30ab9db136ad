"""Smoke test for a tiny decoder-only language model: five optimizer steps on a repeating
token pattern, then report the losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, CTX, D_MODEL = 12, 8, 16


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(VOCAB, D_MODEL)
        self.pos_emb = nn.Embedding(CTX, D_MODEL)
        self.drop = nn.Dropout(0.0)
        self.attn = nn.MultiheadAttention(D_MODEL, num_heads=2, batch_first=True)
        self.ln1 = nn.LayerNorm(D_MODEL)
        self.mlp = nn.Sequential(nn.Linear(D_MODEL, 4 * D_MODEL), nn.GELU(),
                                 nn.Linear(4 * D_MODEL, D_MODEL))
        self.ln2 = nn.LayerNorm(D_MODEL)
        self.lm_head = nn.Linear(D_MODEL, VOCAB)
        self.register_buffer("causal", torch.triu(torch.ones(CTX, CTX, dtype=torch.bool), 1))

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok_emb(idx)
        pos = self.pos_emb(torch.arange(t))
        h = self.drop(x + pos)
        a, _ = self.attn(self.ln1(h), self.ln1(h), self.ln1(h), attn_mask=self.causal[:t, :t])
        h = h + a
        h = h + self.mlp(self.ln2(h))
        return self.lm_head(h)


def get_batch(batch_size=16):
    starts = torch.randint(0, VOCAB, (batch_size, 1))
    seq = (starts + torch.arange(CTX + 1)) % VOCAB
    return seq[:, :-1], seq[:, 1:]


def main(steps=5):
    torch.manual_seed(0)
    model = TinyGPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    losses = []
    for _ in range(steps):
        x, y = get_batch()
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


if __name__ == "__main__":
    print(" ".join(f"{l:.4f}" for l in main()))
