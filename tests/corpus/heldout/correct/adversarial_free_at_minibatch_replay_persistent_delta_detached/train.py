"""'Free' adversarial training (Shafahi et al., 2019): every minibatch is
replayed M times; each replay's single backward gives both the weight
gradient and the perturbation gradient, and the perturbation persists from
replay to replay (and batch to batch), detached and re-armed each time."""
import torch
import torch.nn as nn
import torch.nn.functional as F

EPS, REPLAYS, N_FEAT, N_CLASSES = 0.2, 3, 20, 4


def batches(n, batch=32, seed=12):
    g = torch.Generator().manual_seed(seed)
    centers = 1.5 * torch.randn(N_CLASSES, N_FEAT, generator=g)
    out = []
    for _ in range(n):
        y = torch.randint(0, N_CLASSES, (batch,), generator=g)
        out.append((centers[y] + torch.randn(batch, N_FEAT, generator=g), y))
    return out


def train(epochs=2):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(N_FEAT, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    delta = torch.zeros(32, N_FEAT, requires_grad=True)
    data = batches(3)
    for epoch in range(epochs):
        for x, y in data:
            for _ in range(REPLAYS):
                logits = model(x + delta)
                loss = F.cross_entropy(logits, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                # reuse the same backward for the attacker: ascend and project
                delta = (delta.detach() + EPS * delta.grad.sign()).clamp(-EPS, EPS)
                delta.requires_grad_(True)
        acc = (logits.argmax(1) == y).float().mean().item()
        print(f"epoch {epoch} adv-loss {loss.item():.4f} adv-acc {acc:.3f}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))


if __name__ == "__main__":
    train()
