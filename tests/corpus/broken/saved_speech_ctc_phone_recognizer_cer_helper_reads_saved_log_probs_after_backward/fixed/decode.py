"""Greedy CTC decoding and error rates for the training log."""
import torch

BLANK = 0


def greedy_from_ctc(log_probs, input_lengths):
    """log_probs: (frames, batch, symbols), detached from the training graph."""
    best = log_probs.argmax(dim=-1).t()
    hyps = []
    for row, length in zip(best.tolist(), input_lengths.tolist()):
        out, prev = [], BLANK
        for sym in row[:length]:
            if sym != prev and sym != BLANK:
                out.append(sym)
            prev = sym
        hyps.append(out)
    return hyps


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, y in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (x != y))
    return d[len(b)]


def error_rate(hyps, targets, target_lengths):
    refs = [t[:n] for t, n in zip(targets.tolist(), target_lengths.tolist())]
    errors = sum(edit_distance(h, r) for h, r in zip(hyps, refs))
    return errors / max(1, sum(len(r) for r in refs))
