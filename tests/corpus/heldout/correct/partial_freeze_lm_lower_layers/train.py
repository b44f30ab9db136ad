"""Fine-tune the top of a small transformer LM: the token embedding and the lower block are
frozen with requires_grad_(False), and the optimizer gets only the parameters that still
require grad. The output layer is tied to the (frozen) token embedding."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, CTX, D = 16, 8, 16


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.attn = nn.MultiheadAttention(D, 2, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(D, 2 * D), nn.GELU(), nn.Linear(2 * D, D))

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class SmallLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        nn.init.normal_(self.tok.weight, std=0.3)
        self.pos = nn.Parameter(torch.zeros(CTX, D))
        self.blocks = nn.ModuleList([Block(), Block()])
        self.ln_f = nn.LayerNorm(D)

    def forward(self, idx):
        t = idx.shape[1]
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool), 1)
        x = self.tok(idx) + self.pos[:t]
        for block in self.blocks:
            x = block(x, mask)
        return self.ln_f(x) @ self.tok.weight.t()


def batch(n=16):
    start = torch.randint(0, VOCAB, (n, 1))
    seq = (start + 2 * torch.arange(CTX + 1)) % VOCAB
    return seq[:, :-1], seq[:, 1:]


model = SmallLM()
model.tok.requires_grad_(False)
model.pos.requires_grad_(False)
model.blocks[0].requires_grad_(False)
trainable = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.AdamW(trainable, lr=3e-3)
print(f"trainable tensors {len(trainable)} of {len(list(model.parameters()))}")

for step in range(6):
    x, y = batch()
    loss = F.cross_entropy(model(x).reshape(-1, VOCAB), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
