"""Prototypical networks with a difficulty-aware episode sampler.

Episodes come from four task families (different class-separation levels). The sampler
keeps an exponential moving average of the query loss per family and draws harder
families more often (a simple curriculum in the spirit of adaptive task sampling).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_WAY, K_SHOT, N_QUERY, IN_DIM = 4, 3, 4, 16
FAMILIES = {"easy": 3.0, "medium": 2.0, "hard": 1.2, "very_hard": 0.8}

encoder = nn.Sequential(nn.Linear(IN_DIM, 48), nn.ReLU(), nn.Linear(48, 24))
optimizer = torch.optim.Adam(encoder.parameters(), lr=2e-3)
difficulty = {name: torch.tensor(1.0) for name in FAMILIES}


def episode(separation):
    centers = torch.randn(N_WAY, IN_DIM) * separation
    y = torch.arange(N_WAY).repeat_interleave(K_SHOT + N_QUERY)
    x = centers[y] + torch.randn(len(y), IN_DIM)
    x, y = x.view(N_WAY, K_SHOT + N_QUERY, IN_DIM), y.view(N_WAY, -1)
    return x[:, :K_SHOT], x[:, K_SHOT:].reshape(-1, IN_DIM), y[:, K_SHOT:].reshape(-1)


def proto_loss(support, query, labels):
    prototypes = encoder(support.reshape(-1, IN_DIM)).view(N_WAY, K_SHOT, -1).mean(1)
    logits = -torch.cdist(encoder(query), prototypes) ** 2
    return F.cross_entropy(logits, labels), (logits.argmax(1) == labels).float().mean()


def pick_family():
    names = list(difficulty)
    weights = torch.softmax(torch.stack([difficulty[n] for n in names]) / 0.5, dim=0)
    return names[torch.multinomial(weights, 1).item()]


for it in range(10):
    family = pick_family()
    support, query, labels = episode(FAMILIES[family])
    loss, acc = proto_loss(support, query, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    difficulty[family] = 0.8 * difficulty[family] + 0.2 * loss
    print(f"episode {it} family {family:9s} loss {loss.item():.4f} acc {acc.item():.3f}")

print({name: round(float(d), 3) for name, d in difficulty.items()})
