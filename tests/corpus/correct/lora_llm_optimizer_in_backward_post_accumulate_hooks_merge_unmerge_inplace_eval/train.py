"""LoRA fine-tuning of a small GPT-style LM on a new task (continue an arithmetic progression),
with the optimizer step fused into the backward pass through post-accumulate-grad hooks and a
merged-weight evaluation after every epoch (adapters.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from adapters import add_lora, optimizer_in_backward

VOCAB, DIM, CTX = 24, 32, 12


class GPTBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.fc_in, self.fc_out = nn.Linear(DIM, 4 * DIM), nn.Linear(4 * DIM, DIM)

    def forward(self, x):
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        x = x + self.proj(F.scaled_dot_product_attention(q, k, v, is_causal=True))
        return x + self.fc_out(F.gelu(self.fc_in(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, DIM)
        self.wpe = nn.Embedding(CTX, DIM)
        self.blocks = nn.Sequential(*[GPTBlock() for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(DIM)
        nn.init.normal_(self.wte.weight, std=0.1)

    def forward(self, tokens):
        pos = torch.arange(tokens.shape[1])
        x = self.blocks(self.wte(tokens) + self.wpe(pos))
        return self.ln_f(x) @ self.wte.weight.t()


def progressions(batch_size, gen):
    start = torch.randint(0, VOCAB, (batch_size, 1), generator=gen)
    step = torch.randint(1, 4, (batch_size, 1), generator=gen)
    return (start + step * torch.arange(CTX + 1)) % VOCAB


def lm_loss(model, seq):
    logits = model(seq[:, :-1])
    return F.cross_entropy(logits.reshape(-1, VOCAB), seq[:, 1:].reshape(-1))


def main():
    torch.manual_seed(3)
    pretrained = GPT().state_dict()
    torch.manual_seed(0)
    model = GPT()
    model.load_state_dict(pretrained)
    adapters = add_lora(model, {"qkv", "fc_out"}, rank=4, alpha=8.0)
    params = [p for m in adapters for p in (m.lora_A, m.lora_B)]
    optimizer_in_backward(params, lr=1e-2)
    gen = torch.Generator().manual_seed(0)
    held_out = progressions(64, torch.Generator().manual_seed(99))
    for epoch in range(2):
        for _ in range(3):
            loss = lm_loss(model, progressions(16, gen))
            loss.backward()  # every adapter tensor is updated by its hook during this call
        for m in adapters:
            m.merge()
        with torch.no_grad():
            val = lm_loss(model, held_out).item()
        for m in adapters:
            m.unmerge()
        print(f"epoch {epoch} train loss {loss.item():.4f} held-out loss {val:.4f}")
    frozen = sum(p.numel() for p in model.parameters() if not p.requires_grad)
    print(f"frozen {frozen} trainable {sum(p.numel() for p in params)}")
    print(f"adapter checksum {sum(p.sum().item() for p in params):.6f}")


if __name__ == "__main__":
    main()
