"""Next-interval speed prediction on a road network with an edge-conditioned message-passing GNN."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from utils import aggregate, build_road_graph

N_JUNCTIONS, HIST, HID = 12, 4, 16


class SpeedGNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.edge_encoder = nn.Sequential(nn.Linear(3, HID), nn.ReLU(), nn.Linear(HID, HID))
        self.node_in = nn.Linear(HIST, HID)
        self.msg = nn.Linear(HID, HID)
        self.update = nn.GRUCell(HID, HID)
        self.out = nn.Linear(HID, 1)

    def forward(self, speeds, edge_index, edge_emb, rounds=2):
        h = torch.tanh(self.node_in(speeds))
        src, dst = edge_index
        for _ in range(rounds):
            m = self.msg(h[src]) * torch.sigmoid(edge_emb)
            h = self.update(aggregate(m, dst, h.shape[0]), h)
        return self.out(h).squeeze(-1)


def speed_snapshots(n, edge_index):
    """Speeds fall where neighbours are congested; last column is the target interval."""
    src, dst = edge_index
    for _ in range(n):
        s = torch.rand(N_JUNCTIONS, HIST + 1)
        s[:, -1] = 0.6 * s[:, -2] + 0.4 * aggregate(s[src, -2:-1], dst, N_JUNCTIONS).squeeze(-1)
        yield s[:, :HIST], s[:, -1]


def main():
    torch.manual_seed(8)
    edge_index, road_attrs = build_road_graph(N_JUNCTIONS)
    model = SpeedGNN()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    snapshots = list(speed_snapshots(3, edge_index))
    for epoch in range(2):
        for k, (speeds, target) in enumerate(snapshots):
            # the encoder's weights change every step: encode the road attributes per step
            edge_emb = model.edge_encoder(road_attrs)
            pred = model(speeds, edge_index, edge_emb)
            loss = F.mse_loss(pred, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} snapshot {k} mse {loss.item():.5f}")


if __name__ == "__main__":
    main()
