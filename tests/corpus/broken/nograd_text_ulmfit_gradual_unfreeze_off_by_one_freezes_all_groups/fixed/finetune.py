"""ULMFiT-style fine-tuning utilities: layer groups and gradual unfreezing."""


def layer_groups(model):
    """Bottom-to-top groups: embedding, first LSTM, second LSTM, classifier head."""
    return [model.embed, model.rnn1, model.rnn2, model.head]


def gradual_unfreeze(model, epoch):
    """One more group becomes trainable (from the top) after every epoch."""
    groups = layer_groups(model)
    n_frozen = len(groups) - 1 - epoch
    for i, group in enumerate(groups):
        for p in group.parameters():
            p.requires_grad_(i >= n_frozen)
    return len(groups) - n_frozen


def discriminative_lrs(model, base_lr, factor=2.6):
    """Lower learning rates for lower groups (lr / 2.6 per group down)."""
    groups = layer_groups(model)
    return [
        {"params": list(g.parameters()), "lr": base_lr / factor ** (len(groups) - 1 - i)}
        for i, g in enumerate(groups)
    ]
