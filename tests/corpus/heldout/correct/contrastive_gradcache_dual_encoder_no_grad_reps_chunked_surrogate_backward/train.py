"""Dual-encoder retrieval training with GradCache (Gao et al., 2021): the in-batch-negative
InfoNCE loss needs the whole batch, but only a chunk fits through the encoders with
activations. Step 1 embeds every chunk under no_grad; step 2 computes the loss on those
representations and caches d(loss)/d(representation); step 3 re-encodes chunk by chunk with
graph and backpropagates the cached gradients into the encoders."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, EMB_DIM, BATCH, CHUNK, TAU = 24, 16, 32, 8, 0.05


def tower():
    return nn.Sequential(nn.Linear(IN_DIM, 48), nn.Tanh(), nn.Linear(48, EMB_DIM))


def embed(encoder, x):
    return F.normalize(encoder(x), dim=1)


def info_nce(q, p):
    return F.cross_entropy(q @ p.t() / TAU, torch.arange(len(q)))


def gradcache_step(q_enc, p_enc, queries, passages, optimizer):
    q_chunks, p_chunks = queries.split(CHUNK), passages.split(CHUNK)
    with torch.no_grad():
        q_reps = torch.cat([embed(q_enc, c) for c in q_chunks])
        p_reps = torch.cat([embed(p_enc, c) for c in p_chunks])
    q_reps.requires_grad_(True)
    p_reps.requires_grad_(True)
    loss = info_nce(q_reps, p_reps)
    loss.backward()
    optimizer.zero_grad()
    for encoder, chunks, grads in ((q_enc, q_chunks, q_reps.grad), (p_enc, p_chunks, p_reps.grad)):
        for chunk, grad in zip(chunks, grads.split(CHUNK)):
            surrogate = (embed(encoder, chunk) * grad).sum()
            surrogate.backward()
    optimizer.step()
    return loss.item()


def full_batch_grad_gap(q_enc, p_enc, queries, passages):
    """Check on one batch that the cached-gradient update equals the plain full-batch one."""
    for p in list(q_enc.parameters()) + list(p_enc.parameters()):
        p.grad = None
    info_nce(embed(q_enc, queries), embed(p_enc, passages)).backward()
    full = [p.grad.clone() for p in q_enc.parameters()]
    for p in list(q_enc.parameters()) + list(p_enc.parameters()):
        p.grad = None
    q_chunks = queries.split(CHUNK)
    with torch.no_grad():
        q_reps = torch.cat([embed(q_enc, c) for c in q_chunks])
    q_reps.requires_grad_(True)
    info_nce(q_reps, embed(p_enc, passages).detach()).backward()
    for chunk, grad in zip(q_chunks, q_reps.grad.split(CHUNK)):
        (embed(q_enc, chunk) * grad).sum().backward()
    return max((a - p.grad).abs().max().item() for a, p in zip(full, q_enc.parameters()))


torch.manual_seed(0)
topics = torch.randn(10, IN_DIM)
q_enc, p_enc = tower(), tower()
optimizer = torch.optim.AdamW(list(q_enc.parameters()) + list(p_enc.parameters()), lr=2e-3)
for step in range(5):
    t = torch.randint(0, 10, (BATCH,))
    queries = topics[t] + 0.5 * torch.randn(BATCH, IN_DIM)
    passages = topics[t] + 0.5 * torch.randn(BATCH, IN_DIM)
    print(f"step {step}: in-batch InfoNCE {gradcache_step(q_enc, p_enc, queries, passages, optimizer):.4f}")

gap = full_batch_grad_gap(q_enc, p_enc, queries, passages)
print(f"gradcache vs full-batch gradient gap below 1e-5: {gap < 1e-5}")
checksum = sum(p.sum().item() for p in list(q_enc.parameters()) + list(p_enc.parameters()))
print(f"checksum {checksum:.4f}")
