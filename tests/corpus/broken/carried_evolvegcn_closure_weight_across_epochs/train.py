"""Traffic-speed regression on a road network whose connectivity changes from one time
window to the next (road works, closures). An EvolveGCN-O style layer evolves the GCN weight
matrix with a GRU from snapshot to snapshot. The layer is written functionally:
make_evolving_gcn() returns a step function that keeps the evolving weight in its closure,
and a reset function that puts the initial weight back."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, IN_DIM, HID, N_SNAPSHOTS, EPOCHS = 12, 4, 6, 4, 3


def normalized_adjacency(adj):
    adj = adj + torch.eye(adj.size(0))
    d = adj.sum(1).pow(-0.5)
    return d[:, None] * adj * d[None, :]


def make_snapshots():
    base = (torch.rand(N_NODES, N_NODES) < 0.25).float()
    snapshots = []
    for _ in range(N_SNAPSHOTS):
        keep = (torch.rand(N_NODES, N_NODES) < 0.85).float()
        adj = ((base * keep + base.t() * keep.t()) > 0).float()
        x = torch.randn(N_NODES, IN_DIM)
        a_hat = normalized_adjacency(adj)
        y = (a_hat @ x).sum(-1) * 0.5
        snapshots.append((a_hat, x, y))
    return snapshots


def make_evolving_gcn(params, evolver):
    W = params["w0"]

    def step(a_hat, x):
        nonlocal W
        W = evolver(W, W)  # the rows of W are the GRU's batch: W(t) = GRU(W(t-1), W(t-1))
        return F.relu(a_hat @ x @ W)

    def reset():
        nonlocal W
        W = params["w0"]

    return step, reset


def main():
    torch.manual_seed(0)
    snapshots = make_snapshots()
    params = nn.ParameterDict({"w0": nn.Parameter(0.3 * torch.randn(IN_DIM, HID))})
    evolver = nn.GRUCell(HID, HID)
    head = nn.Linear(HID, 1)
    optimizer = torch.optim.Adam([*params.parameters(), *evolver.parameters(),
                                  *head.parameters()], lr=0.01)
    gcn_step, reset_weights = make_evolving_gcn(params, evolver)
    history = []
    for epoch in range(EPOCHS):
        loss = 0.0
        for a_hat, x, y in snapshots:
            pred = head(gcn_step(a_hat, x)).squeeze(-1)
            loss = loss + F.mse_loss(pred, y)
        loss = loss / len(snapshots)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
        print(f"epoch {epoch} mse {loss.item():.4f}")
    return history


if __name__ == "__main__":
    main()
