"""Image priors for the feed-forward stylisation network."""


def total_variation(img):
    dh = (img[:, :, 1:, :] - img[:, :, :-1, :]).abs().mean()
    dw = (img[:, :, :, 1:] - img[:, :, :, :-1]).abs().mean()
    return dh + dw


def apply_tv_regulariser(img, weight):
    """Smoothness prior on the stylised output; its gradient is added right here."""
    tv = total_variation(img)
    (weight * tv).backward()
    return tv.item()
