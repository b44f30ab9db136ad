"""Road-network speed regression with a gated GCN: a learnable gate turns each road segment
connection's static attributes (length, lanes, turn type) into an edge weight. The graph and its
tensors travel together in a RoadGraph dataclass."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES, N_EDGES, NODE_FEAT, EDGE_FEAT, HIDDEN = 40, 160, 5, 3, 24


@dataclass
class RoadGraph:
    x: torch.Tensor
    src: torch.Tensor
    dst: torch.Tensor
    edge_attr: torch.Tensor
    speed: torch.Tensor
    edge_weight: torch.Tensor | None = None


class GatedGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.edge_gate = nn.Sequential(nn.Linear(EDGE_FEAT, 8), nn.ReLU(), nn.Linear(8, 1))
        self.lin1 = nn.Linear(NODE_FEAT, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, HIDDEN)
        self.readout = nn.Linear(HIDDEN, 1)

    def gate(self, edge_attr):
        return torch.sigmoid(self.edge_gate(edge_attr)).squeeze(-1)

    def propagate(self, h, g):
        messages = h[g.src] * g.edge_weight[:, None]
        agg = torch.zeros_like(h).index_add(0, g.dst, messages)
        deg = torch.zeros(h.shape[0]).index_add(0, g.dst, g.edge_weight) + 1.0
        return (agg + h) / deg[:, None]

    def forward(self, g):
        h = F.relu(self.propagate(self.lin1(g.x), g))
        h = F.relu(self.propagate(self.lin2(h), g))
        return self.readout(h).squeeze(-1)


def road_network():
    x = torch.randn(N_NODES, NODE_FEAT)
    src = torch.randint(0, N_NODES, (N_EDGES,))
    dst = torch.randint(0, N_NODES, (N_EDGES,))
    edge_attr = torch.rand(N_EDGES, EDGE_FEAT)
    speed = 50 + 10 * x[:, 0] + 5 * torch.randn(N_NODES)
    return RoadGraph(x, src, dst, edge_attr, (speed - 50) / 10)


model = GatedGCN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
graph = road_network()
train_mask = torch.rand(N_NODES) < 0.7

for epoch in range(6):
    model.train()
    graph.edge_weight = model.gate(graph.edge_attr)
    pred = model(graph)
    loss = F.mse_loss(pred[train_mask], graph.speed[train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        val = F.mse_loss(pred[~train_mask], graph.speed[~train_mask]).item()
    print(f"epoch {epoch}  train mse {loss.item():.4f}  val mse {val:.4f}")
