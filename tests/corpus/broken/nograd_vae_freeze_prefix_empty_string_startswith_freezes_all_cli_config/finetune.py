"""Helpers shared by the pretraining and fine-tuning entry points."""


def apply_freeze(model, prefix):
    """Keep the parameters whose qualified name starts with `prefix` fixed, e.g. "encoder."
    to adapt only the decoder of a pretrained VAE to a new domain."""
    for name, param in model.named_parameters():
        param.requires_grad_(not name.startswith(prefix))
    return model


def count_trainable(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
