"""Tiny GPT-style causal LM on a synthetic arithmetic-sequence corpus, with optional tying of
the output projection to the token embedding."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    vocab_size: int = 32
    block_size: int = 12
    n_embd: int = 32
    n_head: int = 4
    tie_embeddings: bool = True


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.pos_emb = nn.Parameter(torch.zeros(1, cfg.block_size, cfg.n_embd))
        self.block = nn.TransformerEncoderLayer(cfg.n_embd, cfg.n_head, 4 * cfg.n_embd,
                                                dropout=0.0, batch_first=True, norm_first=True)
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        nn.init.normal_(self.pos_emb, std=0.02)
        nn.init.normal_(self.tok_emb.weight, std=0.02)

    def tie_weights(self):
        self.lm_head.weight = self.tok_emb.weight

    def forward(self, idx):
        t = idx.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        x = self.tok_emb(idx) + self.pos_emb[:, :t]
        x = self.block(x, src_mask=mask, is_causal=True)
        return self.lm_head(self.ln_f(x))


def get_batch(cfg, batch=8):
    start = torch.randint(0, cfg.vocab_size, (batch, 1))
    stride = torch.randint(1, 4, (batch, 1))
    seq = (start + stride * torch.arange(cfg.block_size + 1)) % cfg.vocab_size
    return seq[:, :-1], seq[:, 1:]


def main(steps=6):
    torch.manual_seed(0)
    cfg = GPTConfig()
    model = TinyGPT(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
    if cfg.tie_embeddings:
        model.tie_weights()
    for step in range(steps):
        x, y = get_batch(cfg)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, cfg.vocab_size), y.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    n_params = sum(p.numel() for p in model.parameters())
    print(f"params {n_params} emb checksum {model.tok_emb.weight.sum().item():.4f}")


if __name__ == "__main__":
    main()
