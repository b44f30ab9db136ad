"""Image priors for the feed-forward stylisation network."""


def total_variation(img):
    dh = (img[:, :, 1:, :] - img[:, :, :-1, :]).abs().mean()
    dw = (img[:, :, :, 1:] - img[:, :, :, :-1]).abs().mean()
    return dh + dw


def apply_tv_regulariser(img, weight):
    """Smoothness prior on the stylised output: returns the weighted term for the caller to
    add to its loss (one backward through the transformer graph)."""
    return weight * total_variation(img)
