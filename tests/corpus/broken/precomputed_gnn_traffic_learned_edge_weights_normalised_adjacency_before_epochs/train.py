"""Traffic-speed forecasting on a 10-sensor ring road: predict the next 3 readings of every
sensor from the last 6, while learning how strongly neighbouring sensors are coupled."""
import torch
import torch.nn.functional as F

from model import GraphForecaster, LearnedRoadGraph

N_NODES, HISTORY, HORIZON = 10, 6, 3


def ring_road_edges(n):
    src = torch.arange(n)
    ring = torch.stack([src, (src + 1) % n])
    chords = torch.tensor([[0, 2, 4], [5, 7, 9]])
    return torch.cat([ring, chords], dim=1)


def make_windows(n_windows=24):
    t = torch.arange(n_windows + HISTORY + HORIZON).float()
    phase = torch.linspace(0, 3.0, N_NODES)[:, None]
    speeds = 60 + 10 * torch.sin(t[None, :] / 3.0 + phase) + torch.randn(N_NODES, t.numel())
    speeds = (speeds - 60) / 10
    x = torch.stack([speeds[:, i:i + HISTORY] for i in range(n_windows)])
    y = torch.stack([speeds[:, i + HISTORY:i + HISTORY + HORIZON] for i in range(n_windows)])
    return x, y


def main():
    torch.manual_seed(6)
    graph = LearnedRoadGraph(ring_road_edges(N_NODES), N_NODES)
    model = GraphForecaster(HISTORY, HORIZON)
    optimizer = torch.optim.Adam([*graph.parameters(), *model.parameters()], lr=1e-2)
    x, y = make_windows()

    norm_adj = graph.normalised_adjacency()
    for epoch in range(2):
        perm = torch.randperm(x.size(0))
        for step, idx in enumerate(perm.split(8)):
            pred = model(x[idx], norm_adj)
            loss = F.mse_loss(pred, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {step} mse {loss.item():.4f}")
    print(f"mean edge weight {torch.sigmoid(graph.edge_logits).mean().item():.4f}")


if __name__ == "__main__":
    main()
