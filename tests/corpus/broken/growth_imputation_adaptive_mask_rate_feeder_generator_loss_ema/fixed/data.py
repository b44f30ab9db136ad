"""Batch feeder for masked-imputation training of multivariate sensor series.

Every batch hides a fraction of the observed entries (the evaluation mask) and asks the
model to reconstruct them. The feeder is a generator driven with send(): the trainer sends
back each batch's imputation loss, and the feeder raises the masking rate while the model
finds the task easy (a simple curriculum)."""
import torch

BASE_RATE, MAX_RATE = 0.1, 0.4


def masked_batches(series, observed, batch_size, window, gen):
    n_series, length, _ = series.shape
    difficulty = None
    while True:
        rate = BASE_RATE
        if difficulty is not None:
            rate = min(MAX_RATE, BASE_RATE + 0.2 / (1.0 + float(difficulty)))
        idx = torch.randint(0, n_series, (batch_size,), generator=gen)
        start = torch.randint(0, length - window + 1, (1,), generator=gen).item()
        x = series[idx, start:start + window]
        obs = observed[idx, start:start + window]
        hide = (torch.rand(obs.shape, generator=gen) < rate) & obs
        feedback = yield x, obs & ~hide, hide
        if feedback is not None:
            feedback = feedback.item()  # a number: the curriculum needs the value, not the graph
            difficulty = feedback if difficulty is None else 0.8 * difficulty + 0.2 * feedback
