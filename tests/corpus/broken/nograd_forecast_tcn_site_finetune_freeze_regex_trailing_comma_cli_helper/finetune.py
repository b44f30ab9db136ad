"""Fine-tuning helpers shared by the forecasting experiments."""
import re


def freeze_by_regex(model, spec):
    """Freeze every parameter whose name matches one of the comma-separated regexes in spec.

    e.g. --freeze "embed,blocks.0" keeps the input embedding and the first block fixed.
    """
    pattern = re.compile("|".join(part.strip() for part in spec.split(",")))
    frozen = []
    for name, param in model.named_parameters():
        if pattern.search(name):
            param.requires_grad_(False)
            frozen.append(name)
    return frozen


def trainable_summary(model):
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return f"{trainable}/{total} parameters trainable"
