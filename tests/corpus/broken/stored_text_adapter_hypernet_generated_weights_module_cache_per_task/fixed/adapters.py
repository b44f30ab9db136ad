"""Task-conditioned bottleneck adapters whose weights come from a shared hypernetwork
(HyperFormer style): one small network maps (task embedding, layer embedding) to the
down- and up-projection of every adapter, so tasks share what they can.

The weights are generated again in every forward: the hypernetwork changes with every
optimizer step, and each batch's backward frees the graph that produced them.
"""
import torch
import torch.nn as nn


def clear_cache():
    """Kept for callers: nothing is cached between forwards any more."""


class AdapterHyperNet(nn.Module):
    def __init__(self, n_tasks, n_layers, d_model, bottleneck, d_cond=8):
        super().__init__()
        self.d_model, self.bottleneck = d_model, bottleneck
        self.task_emb = nn.Embedding(n_tasks, d_cond)
        self.layer_emb = nn.Embedding(n_layers, d_cond)
        self.trunk = nn.Sequential(nn.Linear(2 * d_cond, 32), nn.ReLU())
        self.to_down = nn.Linear(32, d_model * bottleneck)
        self.to_up = nn.Linear(32, bottleneck * d_model)

    def forward(self, task_id, layer_idx):
        cond = torch.cat([self.task_emb.weight[task_id], self.layer_emb.weight[layer_idx]])
        h = self.trunk(cond)
        down = self.to_down(h).view(self.d_model, self.bottleneck)
        up = 0.1 * self.to_up(h).view(self.bottleneck, self.d_model)
        return down, up


def adapter_weights(hypernet, task_id, layer_idx):
    return hypernet(task_id, layer_idx)


def apply_adapter(x, hypernet, task_id, layer_idx):
    down, up = adapter_weights(hypernet, task_id, layer_idx)
    return x + torch.relu(x @ down) @ up
