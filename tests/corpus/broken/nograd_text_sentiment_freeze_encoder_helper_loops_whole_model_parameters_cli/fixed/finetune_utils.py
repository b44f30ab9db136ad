"""Helpers shared by the fine-tuning scripts."""
import torch.nn as nn


def freeze_encoder(model: nn.Module) -> int:
    """Freeze the pretrained encoder so only the task head is fine-tuned."""
    frozen = 0
    for p in model.encoder.parameters():
        p.requires_grad_(False)
        frozen += p.numel()
    return frozen

