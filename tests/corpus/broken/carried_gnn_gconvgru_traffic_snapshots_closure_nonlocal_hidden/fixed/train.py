"""Traffic-speed forecasting on a road graph with a graph-convolutional GRU (GConvGRU-like).
Snapshots arrive one at a time; the node hidden state is threaded through a closure so the
training step can be handed to a generic loop, and reset at the start of every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, HIDDEN = 8, 3, 12


def normalized_adjacency(n):
    adj = torch.zeros(n, n)
    for i in range(n):
        adj[i, (i + 1) % n] = adj[(i + 1) % n, i] = 1.0
        adj[i, (i + 3) % n] = adj[(i + 3) % n, i] = 1.0
    adj = adj + torch.eye(n)
    d = adj.sum(1).rsqrt()
    return d[:, None] * adj * d[None, :]


class GraphConvGRU(nn.Module):
    def __init__(self, in_dim, hid):
        super().__init__()
        self.conv_zr = nn.Linear(in_dim + hid, 2 * hid)
        self.conv_h = nn.Linear(in_dim + hid, hid)

    def forward(self, x, h, a_hat):
        zr = torch.sigmoid(a_hat @ self.conv_zr(torch.cat([x, h], dim=-1)))
        z, r = zr.chunk(2, dim=-1)
        h_tilde = torch.tanh(a_hat @ self.conv_h(torch.cat([x, r * h], dim=-1)))
        return z * h + (1 - z) * h_tilde


class TrafficForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = GraphConvGRU(N_FEATS, HIDDEN)
        self.readout = nn.Linear(HIDDEN, 1)

    def forward(self, x, h, a_hat):
        h = self.cell(x, h, a_hat)
        return self.readout(F.relu(h)).squeeze(-1), h


def make_stepper(model, optimizer, a_hat):
    H = None

    def reset():
        nonlocal H
        H = torch.zeros(N_NODES, HIDDEN)

    def step(x, y):
        nonlocal H
        y_hat, H = model(x, H.detach(), a_hat)
        loss = F.mse_loss(y_hat, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()

    return reset, step


def snapshots(n_steps):
    t = torch.arange(n_steps + 1, dtype=torch.float32)
    base = torch.sin(0.5 * t[:, None] + torch.arange(N_NODES)[None, :] * 0.7)
    feats = torch.stack([base, base.roll(1, 1), torch.cos(0.5 * t)[:, None].expand(-1, N_NODES)], -1)
    return [(feats[i], base[i + 1]) for i in range(n_steps)]


if __name__ == "__main__":
    torch.manual_seed(0)
    a_hat = normalized_adjacency(N_NODES)
    model = TrafficForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    reset, step = make_stepper(model, optimizer, a_hat)
    data = snapshots(4)
    for epoch in range(2):
        reset()
        losses = [step(x, y) for x, y in data]
        print(f"epoch {epoch}: mean mse {sum(losses) / len(losses):.4f} last {losses[-1]:.4f}")
