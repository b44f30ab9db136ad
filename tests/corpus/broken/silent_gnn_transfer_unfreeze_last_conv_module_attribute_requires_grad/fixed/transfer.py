"""Transfer-learning helpers: which parts of a pretrained encoder stay frozen."""


def prepare_for_transfer(model, cfg):
    """Freeze the pretrained encoder, then reopen its top layer for fine-tuning."""
    if cfg["freeze_encoder"]:
        model.encoder.requires_grad_(False)
    if cfg["unfreeze_top_conv"]:
        model.encoder.convs[-1].requires_grad_(True)
    return model


def param_groups(model, cfg):
    return [
        {"params": model.encoder.convs[-1].parameters(), "lr": cfg["encoder_lr"]},
        {"params": model.head.parameters(), "lr": cfg["head_lr"]},
    ]
