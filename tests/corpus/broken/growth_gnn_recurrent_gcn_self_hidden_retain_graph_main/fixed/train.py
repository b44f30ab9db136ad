"""Traffic-speed nowcasting on a ring of road sensors with a gated recurrent graph
convolution: the node hidden state lives on the model (self.h) and is carried from one
five-minute snapshot to the next, as the temporal-GNN examples suggest. retain_graph=True
was added when the second snapshot's backward raised an error."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SENSORS, N_FEATS, HID, N_SNAPSHOTS = 12, 3, 16, 10


def ring_adjacency(n):
    adj = torch.eye(n)
    idx = torch.arange(n)
    adj[idx, (idx + 1) % n] = 1.0
    adj[idx, (idx - 1) % n] = 1.0
    deg_inv_sqrt = adj.sum(1).pow(-0.5)
    return deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]


class GatedRecurrentGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Linear(N_FEATS, HID)
        self.gate = nn.Linear(N_FEATS, HID)
        self.out = nn.Linear(HID, 1)
        self.h = None

    def forward(self, a_hat, x):
        z = torch.sigmoid(self.gate(x))
        candidate = torch.tanh(a_hat @ self.conv(x))
        self.h = candidate if self.h is None else z * self.h + (1 - z) * candidate
        return self.out(self.h).squeeze(-1)


def snapshots(n):
    """Speeds follow a slow wave around the ring; features are the last three readings."""
    t = torch.arange(n + N_FEATS + 1, dtype=torch.float32)[:, None]
    phase = torch.arange(N_SENSORS, dtype=torch.float32)[None, :] * 0.5
    speed = torch.sin(0.4 * t + phase) + 0.05 * torch.randn(len(t), N_SENSORS)
    for k in range(n):
        yield speed[k:k + N_FEATS].T, speed[k + N_FEATS]


def main():
    torch.manual_seed(0)
    a_hat = ring_adjacency(N_SENSORS)
    model = GatedRecurrentGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for k, (x, y) in enumerate(snapshots(N_SNAPSHOTS)):
        loss = F.mse_loss(model(a_hat, x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.h = model.h.detach()
        print(f"snapshot {k} mse {loss.item():.4f}")
    return loss.item()


if __name__ == "__main__":
    main()
