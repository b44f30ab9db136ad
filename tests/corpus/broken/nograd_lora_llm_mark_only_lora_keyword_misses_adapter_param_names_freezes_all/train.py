"""LoRA fine-tuning of a small pretrained LLaMA-style causal LM on a new task (answer with the
prompt reversed): adapters on the attention query/value projections (lora.py), the base
model frozen, loss only on the answer tokens."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from lora import inject_lora, lora_parameters, mark_only_lora_as_trainable

VOCAB, DIM, PROMPT = 20, 32, 5
SEP = VOCAB - 1


@dataclass
class LoraConfig:
    targets: tuple = ("q_proj", "v_proj")
    rank: int = 4
    alpha: float = 8.0
    trainable_keyword: str = "lora_"
    lr: float = 5e-3
    steps: int = 6


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.q_proj, self.k_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.v_proj, self.o_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.gate_proj, self.up_proj = nn.Linear(dim, 2 * dim), nn.Linear(dim, 2 * dim)
        self.down_proj = nn.Linear(2 * dim, dim)

    def forward(self, x):
        h = self.norm1(x)
        att = F.scaled_dot_product_attention(self.q_proj(h), self.k_proj(h), self.v_proj(h),
                                             is_causal=True)
        x = x + self.o_proj(att)
        h = self.norm2(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class TinyLM(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(0.02 * torch.randn(2 * PROMPT + 1, DIM))
        self.layers = nn.ModuleList([Block(DIM) for _ in range(n_layers)])
        self.lm_head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos[:tokens.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(x)


def reversal_batch(batch_size, gen):
    prompt = torch.randint(0, SEP, (batch_size, PROMPT), generator=gen)
    sep = torch.full((batch_size, 1), SEP)
    return torch.cat([prompt, sep, prompt.flip(1)], dim=1)


def main(cfg=LoraConfig()):
    torch.manual_seed(1)
    base_state = TinyLM().state_dict()  # stands in for the pretrained checkpoint
    torch.manual_seed(0)
    model = TinyLM()
    model.load_state_dict(base_state)
    inject_lora(model, cfg.targets, cfg.rank, cfg.alpha)
    mark_only_lora_as_trainable(model, cfg.trainable_keyword)
    optimizer = torch.optim.AdamW(lora_parameters(model), lr=cfg.lr)
    gen = torch.Generator().manual_seed(0)
    for step in range(cfg.steps):
        seq = reversal_batch(16, gen)
        logits = model(seq[:, :-1])
        answer = logits[:, PROMPT:]
        loss = F.cross_entropy(answer.reshape(-1, VOCAB), seq[:, PROMPT + 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} answer loss {loss.item():.4f}")
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable parameters {trainable}")


if __name__ == "__main__":
    main()
