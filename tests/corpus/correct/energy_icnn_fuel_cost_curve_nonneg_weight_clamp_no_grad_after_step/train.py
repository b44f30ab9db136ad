"""Input-convex neural network (ICNN) for a generator fleet's fuel-cost surface over
(output of unit A, output of unit B, ambient temperature): convexity in the inputs needs
non-negative weights on the hidden-to-hidden path, enforced by clamping them in place
under no_grad right after every optimizer step. The training-batch error is logged from
the pre-step prediction after the clamp (detached, nothing is backwarded through it)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IN_DIM, HIDDEN = 3, 24


class ICNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.x_in = nn.Linear(IN_DIM, HIDDEN)
        self.z_layers = nn.ModuleList([nn.Linear(HIDDEN, HIDDEN, bias=False),
                                       nn.Linear(HIDDEN, 1, bias=False)])
        self.x_skips = nn.ModuleList([nn.Linear(IN_DIM, HIDDEN), nn.Linear(IN_DIM, 1)])
        self.project()

    @torch.no_grad()
    def project(self):
        for layer in self.z_layers:
            layer.weight.clamp_(min=0.0)

    def forward(self, x):
        z = F.softplus(self.x_in(x))
        z = F.softplus(self.z_layers[0](z) + self.x_skips[0](x))
        return (self.z_layers[1](z) + self.x_skips[1](x)).squeeze(-1)


def fuel_cost(n):
    x = torch.rand(n, IN_DIM) * 2 - 1
    a, b, temp = x.unbind(1)
    cost = 0.8 * a ** 2 + 0.5 * b ** 2 + 0.3 * a * b + 0.2 * (a + b).abs() + 0.1 * temp
    return x, cost + 0.02 * torch.randn(n)


def train(epochs=3, batches=2):
    model = ICNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    data = [fuel_cost(64) for _ in range(batches)]
    for epoch in range(epochs):
        for x, y in data:
            pred = model(x)
            loss = F.mse_loss(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model.project()  # keep the z-path weights non-negative
            mae = (pred.detach() - y).abs().mean().item()
        min_w = min(layer.weight.min().item() for layer in model.z_layers)
        print(f"epoch {epoch} mse {loss.item():.5f} mae {mae:.5f} min z-weight {min_w:.4f}")

    # convexity check along a random chord
    with torch.no_grad():
        p, q = torch.rand(2, 16, IN_DIM) * 2 - 1
        gap = 0.5 * (model(p) + model(q)) - model(0.5 * (p + q))
    print(f"min midpoint convexity gap {gap.min().item():.6f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
