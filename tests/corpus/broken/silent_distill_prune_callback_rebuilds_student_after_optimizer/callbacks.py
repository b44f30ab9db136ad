"""Trainer callbacks: one-shot structured pruning of the student before distillation."""
import torch
import torch.nn as nn


def prune_channels(net, keep):
    """L1-magnitude channel pruning of the first conv; returns a new, narrower network."""
    conv1, conv2, fc = net[0], net[2], net[6]
    n_keep = max(1, int(conv1.out_channels * keep))
    idx = conv1.weight.abs().sum((1, 2, 3)).topk(n_keep).indices.sort().values
    small = nn.Sequential(
        nn.Conv2d(1, n_keep, 3, padding=1), nn.ReLU(),
        nn.Conv2d(n_keep, conv2.out_channels, 3, padding=1, stride=2), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(fc.in_features, fc.out_features),
    )
    with torch.no_grad():
        small[0].weight.copy_(conv1.weight[idx])
        small[0].bias.copy_(conv1.bias[idx])
        small[2].weight.copy_(conv2.weight[:, idx])
        small[2].bias.copy_(conv2.bias)
        small[6].load_state_dict(fc.state_dict())
    return small


class PruneBeforeFit:
    def __init__(self, keep=0.5):
        self.keep = keep

    def on_fit_start(self, trainer):
        before = sum(p.numel() for p in trainer.student.parameters())
        trainer.student = prune_channels(trainer.student, self.keep)
        after = sum(p.numel() for p in trainer.student.parameters())
        print(f"pruned student: {before} -> {after} parameters")


class LossLogger:
    def on_step_end(self, trainer, step, losses):
        print(f"step {step} " + " ".join(f"{k} {v:.4f}" for k, v in losses.items()))
