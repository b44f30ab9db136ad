"""Tiny decoder-only LM: train, sample with a KV cache under inference_mode, self-train.

Sampling runs under torch.inference_mode() with a per-layer key/value cache grown by
torch.cat. The sampled sequences are inference tensors, so before they are used as
training data they are cloned outside inference mode into normal tensors.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(23)
VOCAB, DIM, CTX = 16, 32, 12


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x, cache=None):
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        if cache is not None:
            if "k" in cache:
                k, v = torch.cat([cache["k"], k], 1), torch.cat([cache["v"], v], 1)
            cache["k"], cache["v"] = k, v
        causal = cache is None or x.shape[1] > 1
        att = F.scaled_dot_product_attention(q.unsqueeze(1), k.unsqueeze(1), v.unsqueeze(1),
                                             is_causal=causal).squeeze(1)
        x = x + self.proj(att)
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(CTX, DIM)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, idx, caches=None, offset=0):
        x = self.tok(idx) + self.pos(torch.arange(offset, offset + idx.shape[1]))
        for i, block in enumerate(self.blocks):
            x = block(x, None if caches is None else caches[i])
        return self.head(x)


@torch.inference_mode()
def sample(model, prompt, n_new):
    caches = [{} for _ in model.blocks]
    logits = model(prompt, caches)
    out = prompt
    for _ in range(n_new):
        nxt = torch.multinomial(logits[:, -1].softmax(-1), 1)
        out = torch.cat([out, nxt], dim=1)
        logits = model(nxt, caches, offset=out.shape[1] - 1)
    return out


def lm_step(model, opt, seqs):
    loss = F.cross_entropy(model(seqs[:, :-1]).reshape(-1, VOCAB), seqs[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    model = TinyGPT()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    starts = torch.randint(0, VOCAB, (8, 1))
    corpus = (starts + 2 * torch.arange(CTX)) % VOCAB
    for step in range(4):
        print(f"supervised step {step} loss {lm_step(model, opt, corpus):.6f}")
    samples = sample(model, corpus[:, :3], CTX - 3)
    pseudo = samples.clone()  # outside inference_mode: a normal tensor autograd may save
    print(f"sample row 0 {pseudo[0].tolist()}")
    for step in range(2):
        print(f"self-train step {step} loss {lm_step(model, opt, pseudo):.6f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
