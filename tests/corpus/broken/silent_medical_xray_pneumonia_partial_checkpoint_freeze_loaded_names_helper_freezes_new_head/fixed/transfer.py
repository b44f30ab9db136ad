"""Helpers for starting from the in-house ChestX-ray14 checkpoint."""
import torch


def load_compatible(model, state_dict):
    """Copy every checkpoint tensor whose name and shape match the model.

    Returns the names of the parameters that now hold pretrained values.
    """
    own = model.state_dict()
    compatible = {k: v for k, v in state_dict.items() if k in own and own[k].shape == v.shape}
    skipped = sorted(set(state_dict) - set(compatible))
    model.load_state_dict(compatible, strict=False)
    print(f"loaded {len(compatible)} tensors, skipped {skipped}")
    return list(compatible)


def freeze(model, names):
    """Keep the pretrained weights fixed during linear-probe style fine-tuning."""
    for name, param in model.named_parameters():
        if name in names:
            param.requires_grad_(False)
    return sum(not p.requires_grad for p in model.parameters())


def checkpoint_from(model_cls, **kwargs):
    """Stands in for torch.load() of the pretraining run (average pooling, 14-label head)."""
    torch.manual_seed(123)
    return model_cls(**kwargs).state_dict()
