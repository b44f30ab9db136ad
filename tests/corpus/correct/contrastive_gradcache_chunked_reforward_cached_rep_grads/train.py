"""Query/passage dual-encoder trained with in-batch negatives using gradient caching
(GradCache): representations for the whole batch are computed without a graph, the
contrastive loss is backwarded to those detached representations only, and each chunk is
then re-encoded with a graph and backwarded with its cached representation gradient."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, LEN, DIM, BATCH, CHUNK = 100, 12, 32, 16, 4


class BagEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, 48, mode="mean")
        self.proj = nn.Sequential(nn.Linear(48, 48), nn.GELU(), nn.Linear(48, DIM))

    def forward(self, tokens):
        return F.normalize(self.proj(self.embed(tokens)), dim=-1)


def make_pairs(gen):
    topics = torch.randint(0, 10, (BATCH,), generator=gen)
    base = topics.unsqueeze(1) * 10
    queries = base + torch.randint(0, 10, (BATCH, LEN), generator=gen)
    passages = base + torch.randint(0, 10, (BATCH, LEN), generator=gen)
    return queries, passages


def encode_no_grad(encoder, tokens):
    with torch.no_grad():
        return torch.cat([encoder(c) for c in tokens.split(CHUNK)])


def gradcache_step(q_enc, p_enc, optimizer, queries, passages, temperature=0.05):
    q_reps = encode_no_grad(q_enc, queries).requires_grad_()
    p_reps = encode_no_grad(p_enc, passages).requires_grad_()
    logits = q_reps @ p_reps.t() / temperature
    loss = F.cross_entropy(logits, torch.arange(BATCH))
    loss.backward()
    q_grads, p_grads = q_reps.grad.split(CHUNK), p_reps.grad.split(CHUNK)

    optimizer.zero_grad()
    for tokens, grad in zip(queries.split(CHUNK), q_grads):
        q_enc(tokens).backward(grad)
    for tokens, grad in zip(passages.split(CHUNK), p_grads):
        p_enc(tokens).backward(grad)
    optimizer.step()
    return loss.item(), (logits.argmax(1) == torch.arange(BATCH)).float().mean().item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    q_enc, p_enc = BagEncoder(), BagEncoder()
    optimizer = torch.optim.AdamW([*q_enc.parameters(), *p_enc.parameters()], lr=3e-3)
    for step in range(6):
        queries, passages = make_pairs(gen)
        loss, acc = gradcache_step(q_enc, p_enc, optimizer, queries, passages)
        print(f"step {step} loss {loss:.4f} in-batch acc {acc:.3f}")
    checksum = sum(p.sum().item() for p in [*q_enc.parameters(), *p_enc.parameters()])
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
