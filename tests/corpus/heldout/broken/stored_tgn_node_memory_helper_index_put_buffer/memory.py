"""Per-node memory for a temporal graph network (TGN-style), kept next to train.py."""
import torch
import torch.nn as nn


class TimeEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.freq = nn.Linear(1, dim)

    def forward(self, dt):
        return torch.cos(self.freq(dt.unsqueeze(1)))


class NodeMemory(nn.Module):
    """One memory vector per node, updated by a GRU cell whenever the node takes part in
    an interaction. The memory itself is a buffer: it is state, not a parameter."""

    def __init__(self, num_nodes, msg_dim, mem_dim):
        super().__init__()
        self.updater = nn.GRUCell(msg_dim, mem_dim)
        self.register_buffer("state", torch.zeros(num_nodes, mem_dim))
        self.register_buffer("last_update", torch.zeros(num_nodes))

    def read(self, nodes):
        return self.state[nodes]

    def update(self, nodes, messages, t):
        new_mem = self.updater(messages, self.state[nodes])
        self.state[nodes] = new_mem
        self.last_update[nodes] = t
        return new_mem

    def reset(self):
        self.state.zero_()
        self.last_update.zero_()
