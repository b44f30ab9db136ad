"""Conditional planar flows (Rezende & Mohamed 2015) for probabilistic forecasting: the
transform parameters of each flow are produced by a context encoder (a GRU over the
recent history), so the predictive density changes with the context."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContextEncoder(nn.Module):
    def __init__(self, n_out, hidden=16):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, n_out)

    def forward(self, history):  # (B, L)
        _, h = self.gru(history[..., None])
        return self.proj(h[-1])


class ConditionalPlanarFlow(nn.Module):
    """x -> x + u_hat * tanh(w.x + b), with (w, u, b) set from the context encoder."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.conditioner = ContextEncoder(2 * dim + 1)

    def forward(self, x, history):
        params = self.conditioner(history)
        w, u = params[:, :self.dim], params[:, self.dim:2 * self.dim]
        b = params[:, 2 * self.dim:]
        wu = (w * u).sum(-1, keepdim=True)
        u_hat = u + (F.softplus(wu) - 1.0 - wu) * w / (w * w).sum(-1, keepdim=True)
        lin = (x * w).sum(-1, keepdim=True) + b
        z = x + u_hat * torch.tanh(lin)
        psi = (1.0 - torch.tanh(lin) ** 2) * w
        log_det = torch.log((1.0 + (psi * u_hat).sum(-1)).abs() + 1e-6)
        return z, log_det


class ConditionalFlow(nn.Module):
    def __init__(self, dim, n_flows=3):
        super().__init__()
        self.flows = nn.ModuleList(ConditionalPlanarFlow(dim) for _ in range(n_flows))
        self.base = torch.distributions.Normal(0.0, 1.0)

    def log_prob(self, x, history):
        total_log_det = torch.zeros(x.size(0))
        for flow in self.flows:
            x, log_det = flow(x, history)
            total_log_det = total_log_det + log_det
        return self.base.log_prob(x).sum(-1) + total_log_det
