"""Survival-analysis helpers shared by the DeepSurv experiments (validated against the
lifelines reference implementation)."""
import numpy as np
import torch


def cox_neg_log_likelihood(log_risk, durations, events):
    """Negative Cox partial log-likelihood (Breslow, no tie correction), averaged over the
    observed events. Risk sets are built by sorting on descending duration."""
    risk = log_risk.reshape(-1)
    order = torch.argsort(-durations, stable=True)
    risk, observed = risk[order], events[order]
    log_risk_set = torch.logcumsumexp(risk, dim=0)
    per_event = (risk - log_risk_set)[observed == 1]
    nll = -per_event.mean()
    return nll


def concordance_index(log_risk, durations, events):
    """Harrell's C: share of comparable pairs whose predicted risk is ordered correctly."""
    risk, t, e = log_risk.detach().numpy().ravel(), durations.numpy(), events.numpy()
    comparable = (t[:, None] < t[None, :]) & (e[:, None] == 1)
    correct = (risk[:, None] > risk[None, :]) & comparable
    return float(correct.sum() / max(comparable.sum(), 1))
