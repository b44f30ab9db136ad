"""Walks long click sessions window by window, the way the recommender sees them when it is
serving: the GRU state of a session flows from one window into the next."""


def session_windows(model, clicks, window):
    """Yields (logits, next_items) for consecutive windows of a batch of sessions.

    clicks: (batch, length) item ids. The last window may be shorter.
    """
    hidden = None
    for start in range(0, clicks.size(1) - 1, window):
        stop = min(start + window, clicks.size(1) - 1)
        inputs = clicks[:, start:stop]
        next_items = clicks[:, start + 1:stop + 1]
        logits, hidden = model(inputs, hidden)
        yield logits, next_items
