"""LoRA fine-tuning of a small "pretrained" causal transformer LM on a new token domain:
base weights stay frozen, low-rank adapters on the attention query/value projections are
trained (lora.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from lora import add_lora

VOCAB, DIM, SEQ, BATCH = 24, 32, 10, 8


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(0.02 * torch.randn(SEQ, DIM))
        self.q_proj, self.k_proj = nn.Linear(DIM, DIM), nn.Linear(DIM, DIM)
        self.v_proj, self.o_proj = nn.Linear(DIM, DIM), nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 2 * DIM), nn.GELU(), nn.Linear(2 * DIM, DIM))
        self.lm_head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens):
        h = self.embed(tokens) + self.pos[:tokens.shape[1]]
        q, k, v = self.q_proj(h), self.k_proj(h), self.v_proj(h)
        h = h + self.o_proj(F.scaled_dot_product_attention(q, k, v, is_causal=True))
        h = h + self.mlp(h)
        return self.lm_head(h)


def domain_batch():
    """New domain: arithmetic-progression token sequences with a random start and step."""
    start = torch.randint(0, VOCAB, (BATCH, 1))
    step = torch.randint(1, 4, (BATCH, 1))
    return (start + step * torch.arange(SEQ + 1)) % VOCAB


torch.manual_seed(1)
pretrained_state = TinyCausalLM().state_dict()  # stands in for the base checkpoint
torch.manual_seed(0)
model = TinyCausalLM()
model.load_state_dict(pretrained_state)
optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
model = add_lora(model, rank=4)

for step in range(8):
    seq = domain_batch()
    logits = model(seq[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), seq[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
