"""Second-order MAML for 5-way few-shot classification of synthetic 2-D prototypes, with the
network written functionally over an explicit list of weights. Each meta step adapts to a
batch of tasks and sums their query losses into one backward."""
import torch
import torch.nn.functional as F

N_WAY, K_SHOT, N_QUERY, INNER_STEPS, INNER_LR, META_BATCH = 5, 2, 3, 2, 0.4, 3


def init_weights():
    g = torch.Generator().manual_seed(0)
    shapes = [(32, 2), (32,), (32, 32), (32,), (N_WAY, 32), (N_WAY,)]
    return [torch.nn.Parameter(0.3 * torch.randn(s, generator=g)) for s in shapes]


def forward(weights, x):
    w1, b1, w2, b2, w3, b3 = weights
    h = F.relu(F.linear(x, w1, b1))
    h = F.relu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


def sample_episode():
    centers = torch.randn(N_WAY, 2) * 2
    labels_s = torch.arange(N_WAY).repeat_interleave(K_SHOT)
    labels_q = torch.arange(N_WAY).repeat_interleave(N_QUERY)
    xs = centers[labels_s] + 0.3 * torch.randn(labels_s.numel(), 2)
    xq = centers[labels_q] + 0.3 * torch.randn(labels_q.numel(), 2)
    return xs, labels_s, xq, labels_q


def adapt(weights, xs, ys):
    fast = list(weights)
    for _ in range(INNER_STEPS):
        loss = F.cross_entropy(forward(fast, xs), ys)
        grads = torch.autograd.grad(loss, fast, create_graph=True)
        fast = [w - INNER_LR * g for w, g in zip(fast, grads)]
    return fast


torch.manual_seed(0)
meta_weights = init_weights()
meta_opt = torch.optim.Adam(meta_weights, lr=1e-3)
for step in range(5):
    meta_loss, correct = 0.0, 0
    for _ in range(META_BATCH):
        xs, ys, xq, yq = sample_episode()
        fast = adapt(meta_weights, xs, ys)
        logits = forward(fast, xq)
        meta_loss = meta_loss + F.cross_entropy(logits, yq)
        correct += (logits.argmax(1) == yq).sum().item()
    meta_loss = meta_loss / META_BATCH
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    acc = correct / (META_BATCH * N_WAY * N_QUERY)
    print(f"meta step {step} query loss {meta_loss.item():.4f} query acc {acc:.3f}")
print(f"weights checksum {sum(w.sum().item() for w in meta_weights):.6f}")
