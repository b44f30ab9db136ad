"""Graph classification of small synthetic molecules (ring vs chain) with a two-layer GIN,
trained with the team's gnn_engine.training_step helper."""
import torch
import torch.nn as nn

from gnn_engine import training_step

N_FEAT, HID, N_CLASSES, BATCH, STEPS = 3, 32, 2, 8, 5


def random_molecule(kind):
    n = int(torch.randint(4, 8, ()))
    adj = torch.zeros(n, n)
    idx = torch.arange(n - 1)
    adj[idx, idx + 1] = adj[idx + 1, idx] = 1.0
    if kind == 1:
        adj[0, n - 1] = adj[n - 1, 0] = 1.0
    x = torch.nn.functional.one_hot(torch.randint(0, N_FEAT, (n,)), N_FEAT).float()
    return adj, x, kind


class GINLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(()))
        self.mlp = nn.Sequential(nn.Linear(d_in, d_out), nn.ReLU(), nn.Linear(d_out, d_out))

    def forward(self, adj, h):
        return self.mlp((1 + self.eps) * h + adj @ h)


class GIN(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([GINLayer(N_FEAT, HID), GINLayer(HID, HID)])
        self.readout = nn.Linear(HID, N_CLASSES)

    def forward(self, adj, x, graph_index, n_graphs):
        h = x
        for layer in self.layers:
            h = torch.relu(layer(adj, h))
        pooled = torch.zeros(n_graphs, HID).index_add(0, graph_index, h)
        return self.readout(pooled)


def main():
    torch.manual_seed(0)
    dataset = [random_molecule(i % 2) for i in range(BATCH * STEPS)]
    model = GIN()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    history = []
    for step in range(STEPS):
        graphs = dataset[step * BATCH:(step + 1) * BATCH]
        optimizer.zero_grad()
        loss = training_step(model, graphs)
        optimizer.step()
        history.append(loss.item())
        print(f"step {step} loss {loss.item():.4f}")
    return history


if __name__ == "__main__":
    main()
