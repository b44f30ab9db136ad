"""Hypernetwork-generated bottleneck adapters (HyperFormer style). Generated weights are
memoised per (task, layer) in a module-level dict so that the two forward passes of an
R-Drop step share one generation; the trainer empties the dict before every batch."""
import torch
import torch.nn as nn

_GENERATED = {}


def clear_cache():
    _GENERATED.clear()


class AdapterHyperNet(nn.Module):
    def __init__(self, n_tasks, n_layers, d_model, bottleneck, d_cond=8):
        super().__init__()
        self.shape = (d_model, bottleneck)
        self.task_emb = nn.Embedding(n_tasks, d_cond)
        self.layer_emb = nn.Embedding(n_layers, d_cond)
        self.trunk = nn.Sequential(nn.Linear(2 * d_cond, 32), nn.ReLU())
        self.to_down = nn.Linear(32, d_model * bottleneck)
        self.to_up = nn.Linear(32, bottleneck * d_model)

    def forward(self, task_id, layer_idx):
        h = self.trunk(torch.cat([self.task_emb.weight[task_id], self.layer_emb.weight[layer_idx]]))
        d, b = self.shape
        return self.to_down(h).view(d, b), 0.1 * self.to_up(h).view(b, d)


def adapter_weights(hypernet, task_id, layer_idx):
    key = (task_id, layer_idx)
    if key not in _GENERATED:
        _GENERATED[key] = hypernet(task_id, layer_idx)
    return _GENERATED[key]


def apply_adapter(x, hypernet, task_id, layer_idx, p_drop, training):
    down, up = adapter_weights(hypernet, task_id, layer_idx)
    hidden = torch.nn.functional.dropout(torch.relu(x @ down), p_drop, training)
    return x + hidden @ up
