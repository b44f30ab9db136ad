"""Rate-coded spoken-digit toy task: a spiking MLP with learnable membrane
decay (neurons.LearnableLIF) trained through time with a surrogate gradient."""
import torch
import torch.nn.functional as F

from neurons import SpikingMLP

T, N_IN, N_CLASSES = 10, 20, 3


def poisson_batches(n, batch=12, seed=2):
    g = torch.Generator().manual_seed(seed)
    profiles = torch.rand(N_CLASSES, N_IN, generator=g)
    out = []
    for _ in range(n):
        y = torch.randint(0, N_CLASSES, (batch,), generator=g)
        x = (torch.rand(T, batch, N_IN, generator=g) < 0.6 * profiles[y]).float()
        out.append((x, y))
    return out


def train(epochs=2):
    torch.manual_seed(0)
    net = SpikingMLP(N_IN, 40, N_CLASSES)
    opt = torch.optim.Adam(net.parameters(), lr=5e-3)
    batches = poisson_batches(3)
    for epoch in range(epochs):
        total = 0.0
        for x, y in batches:
            counts = net(x)
            loss = F.cross_entropy(counts * 0.5, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(batches):.4f} "
              f"beta1 {net.lif1.beta.mean().item():.4f}")
    return net


if __name__ == "__main__":
    model = train()
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
