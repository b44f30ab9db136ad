"""Losses for the survival models."""
import torch


def cox_partial_likelihood(risk, time, event):
    """Negative Cox partial log-likelihood (Breslow ties), averaged over observed events."""
    order = torch.argsort(time, descending=True)
    risk, event = risk[order], event[order]
    log_cumsum = torch.logcumsumexp(risk, dim=0)
    return -((risk - log_cumsum) * event).sum() / event.sum().clamp_min(1.0)


def guard_non_finite(loss, fallback=0.0, cap=1e4):
    """Batches with no events or a blown-up risk score give nan/inf: replace them so a
    single bad batch cannot poison the Adam moments."""
    # nan_to_num is differentiable (zero gradient where it replaced a value): keep the graph
    return torch.nan_to_num(loss, nan=fallback, posinf=cap, neginf=-cap)
