"""Helpers for fine-tuning pretrained audio models."""


def freeze_until(model, first_trainable):
    """Freeze every parameter registered before the one whose name starts with
    `first_trainable`; that parameter and all later ones stay trainable."""
    trainable = False
    for name, param in model.named_parameters():
        if name.startswith(first_trainable):
            trainable = True
        param.requires_grad = trainable
    return model


def count_trainable(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
