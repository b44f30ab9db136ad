"""Continual learning with Elastic Weight Consolidation on two synthetic 'digit' tasks.

After task A, the diagonal Fisher is estimated from per-sample gradients of ONE batched
forward: torch.autograd.grad is called once per sample with retain_graph=True (the last call
frees the graph). Task B is then trained with the EWC penalty against a detached snapshot of
the task-A weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN, N_CLASSES = 16, 4


def make_task(seed_offset, n=96):
    g = torch.Generator().manual_seed(100 + seed_offset)
    protos = torch.randn(N_CLASSES, IN, generator=g) * 1.5
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    return protos[y] + torch.randn(n, IN, generator=g), y


def fit(model, x, y, optimizer, epochs, penalty=None, tag=""):
    for epoch in range(epochs):
        for i in range(0, len(x), 32):
            logits = model(x[i:i + 32])
            loss = F.cross_entropy(logits, y[i:i + 32])
            reg = penalty() if penalty is not None else torch.zeros(())
            optimizer.zero_grad()
            (loss + reg).backward()
            optimizer.step()
        print(f"{tag} epoch {epoch}: ce {loss.item():.4f} ewc {reg.item():.5f}")


def fisher_diagonal(model, x, n_samples=24):
    params = [p for p in model.parameters() if p.requires_grad]
    fisher = [torch.zeros_like(p) for p in params]
    log_probs = F.log_softmax(model(x[:n_samples]), dim=-1)
    sampled = torch.distributions.Categorical(logits=log_probs.detach()).sample()
    for i in range(n_samples):
        last = i == n_samples - 1
        grads = torch.autograd.grad(log_probs[i, sampled[i]], params, retain_graph=not last)
        for f, g in zip(fisher, grads):
            f += g.pow(2) / n_samples
    return fisher


def accuracy(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(-1) == y).float().mean().item()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(IN, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    xa, ya = make_task(0)
    xb, yb = make_task(1)
    fit(model, xa, ya, optimizer, epochs=2, tag="task A")

    fisher = fisher_diagonal(model, xa)
    anchor = [p.detach().clone() for p in model.parameters()]

    def ewc_penalty(lam=50.0):
        return lam / 2 * sum((f * (p - a).pow(2)).sum()
                             for f, p, a in zip(fisher, model.parameters(), anchor))

    fit(model, xb, yb, optimizer, epochs=2, penalty=ewc_penalty, tag="task B")
    print(f"acc A {accuracy(model, xa, ya):.3f} acc B {accuracy(model, xb, yb):.3f}")
    print(f"fisher mass {sum(f.sum() for f in fisher).item():.6f}")
    print(f"checksum {sum(p.sum() for p in model.parameters()).item():.6f}")


if __name__ == "__main__":
    main()
