"""Diffusion-convolution GRU (DCRNN-style) over a road-sensor graph."""
import torch
import torch.nn as nn


def random_walk(adj):
    return adj / adj.sum(dim=1, keepdim=True).clamp(min=1e-6)


class DiffusionConv(nn.Module):
    """sum_k (P^k X) W_k with forward and backward random-walk matrices, K hops."""

    def __init__(self, in_dim, out_dim, hops=2):
        super().__init__()
        self.hops = hops
        self.lin = nn.Linear(in_dim * (2 * hops + 1), out_dim)

    def forward(self, x, p_fwd, p_bwd):
        terms, xf, xb = [x], x, x
        for _ in range(self.hops):
            xf, xb = p_fwd @ xf, p_bwd @ xb
            terms += [xf, xb]
        return self.lin(torch.cat(terms, dim=-1))


class GraphGRUCell(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.hidden = hidden
        self.gates = DiffusionConv(in_dim + hidden, 2 * hidden)
        self.cand = DiffusionConv(in_dim + hidden, hidden)

    def forward(self, x, h, p_fwd, p_bwd):
        r, u = torch.sigmoid(self.gates(torch.cat([x, h], -1), p_fwd, p_bwd)).chunk(2, -1)
        c = torch.tanh(self.cand(torch.cat([x, r * h], -1), p_fwd, p_bwd))
        return u * h + (1 - u) * c


class GraphGRUForecaster(nn.Module):
    def __init__(self, in_dim=2, hidden=16, horizon=3):
        super().__init__()
        self.cell = GraphGRUCell(in_dim, hidden)
        self.readout = nn.Linear(hidden, horizon)

    def forward(self, window, adj, h=None):
        # window: (T, nodes, in_dim) -> forecast (nodes, horizon), last hidden (nodes, hidden)
        p_fwd, p_bwd = random_walk(adj), random_walk(adj.t())
        if h is None:
            h = window.new_zeros(window.shape[1], self.cell.hidden)
        for x_t in window:
            h = self.cell(x_t, h, p_fwd, p_bwd)
        return self.readout(h), h
