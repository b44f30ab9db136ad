"""Chebyshev graph convolution over EEG electrodes with an adaptive (learned) adjacency, as in
Graph WaveNet / AGCRN: the electrode graph is not given, it is A = relu(tanh(E1 @ E2^T))."""
import torch
import torch.nn as nn


class AdaptiveGraph(nn.Module):
    def __init__(self, n_nodes, emb_dim):
        super().__init__()
        self.src = nn.Parameter(0.3 * torch.randn(n_nodes, emb_dim))
        self.dst = nn.Parameter(0.3 * torch.randn(n_nodes, emb_dim))

    def scaled_laplacian(self):
        """L~ = 2 L / lambda_max - I with L = I - D^-1/2 A D^-1/2 and lambda_max taken as 2."""
        adj = torch.relu(torch.tanh(self.src @ self.dst.t()))
        adj = 0.5 * (adj + adj.t()) + torch.eye(adj.shape[0])
        d_inv_sqrt = adj.sum(1).rsqrt()
        return -(d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :])


class ChebConv(nn.Module):
    def __init__(self, in_dim, out_dim, k=3):
        super().__init__()
        self.lins = nn.ModuleList([nn.Linear(in_dim, out_dim, bias=(i == 0)) for i in range(k)])

    def forward(self, x, lap):
        t_prev, t_cur = x, lap @ x
        out = self.lins[0](t_prev) + self.lins[1](t_cur)
        for lin in self.lins[2:]:
            t_prev, t_cur = t_cur, 2 * (lap @ t_cur) - t_prev
            out = out + lin(t_cur)
        return out


class SeizureChebNet(nn.Module):
    def __init__(self, n_nodes, n_bands, hidden, emb_dim=4):
        super().__init__()
        self.graph = AdaptiveGraph(n_nodes, emb_dim)
        self.conv1 = ChebConv(n_bands, hidden)
        self.conv2 = ChebConv(hidden, hidden)
        self.readout = nn.Linear(hidden, 2)

    def forward(self, x, lap):
        h = torch.relu(self.conv1(x, lap))
        h = torch.relu(self.conv2(h, lap))
        return self.readout(h.mean(dim=1))
