"""Tiny causal transformer LM on a synthetic token stream, trained with gradient
accumulation: each optimizer step sums the gradients of ACCUM micro-batches (one backward
per micro-batch, loss scaled by 1/ACCUM). Blocks are activation-checkpointed and the
running loss is accumulated with .item()."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(17)
VOCAB, CTX, DIM, HEADS, ACCUM, MICRO = 24, 16, 32, 4, 4, 4


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.attn = nn.MultiheadAttention(DIM, HEADS, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, n_blocks=2):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(0.02 * torch.randn(CTX, DIM))
        self.blocks = nn.ModuleList(Block() for _ in range(n_blocks))
        self.ln_f = nn.LayerNorm(DIM)
        self.lm_head = nn.Linear(DIM, VOCAB, bias=False)

    def forward(self, idx):
        mask = torch.triu(torch.full((idx.size(1), idx.size(1)), float("-inf")), diagonal=1)
        x = self.tok(idx) + self.pos[:idx.size(1)]
        for block in self.blocks:
            x = checkpoint(block, x, mask, use_reentrant=False)
        return self.lm_head(self.ln_f(x))


def token_stream(n):
    """Noisy counting sequence: token t+1 usually follows token t."""
    jumps = torch.where(torch.rand(n) < 0.85, torch.ones(n, dtype=torch.long),
                        torch.randint(0, VOCAB, (n,)))
    return jumps.cumsum(0) % VOCAB


model = TinyGPT()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
stream = token_stream(800)
for step in range(3):
    optimizer.zero_grad()
    running = 0.0
    for micro in range(ACCUM):
        starts = torch.randint(0, stream.numel() - CTX - 1, (MICRO,))
        x = torch.stack([stream[s:s + CTX] for s in starts.tolist()])
        y = torch.stack([stream[s + 1:s + CTX + 1] for s in starts.tolist()])
        loss = F.cross_entropy(model(x).reshape(-1, VOCAB), y.reshape(-1)) / ACCUM
        loss.backward()
        running += loss.item()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"step {step} loss {running:.5f}")

print(f"parameter checksum {sum(p.double().sum().item() for p in model.parameters()):.6f}")
