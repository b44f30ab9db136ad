"""Survival-analysis helpers shared by the DeepSurv experiments (NumPy, like the lifelines
reference implementation we validated them against)."""
import numpy as np
import torch


def cox_neg_log_likelihood(log_risk, durations, events):
    """Negative Cox partial log-likelihood (Breslow, no tie correction), averaged over the
    observed events. Risk sets are built by sorting on descending duration."""
    risk = log_risk.detach().cpu().numpy().ravel()
    order = np.argsort(-durations.numpy(), kind="stable")
    risk, observed = risk[order], events.numpy()[order]
    log_risk_set = np.logaddexp.accumulate(risk)
    per_event = (risk - log_risk_set)[observed == 1]
    nll = torch.tensor(-per_event.mean(), dtype=torch.float32)
    return nll


def concordance_index(log_risk, durations, events):
    """Harrell's C: share of comparable pairs whose predicted risk is ordered correctly."""
    risk, t, e = log_risk.detach().numpy().ravel(), durations.numpy(), events.numpy()
    comparable = (t[:, None] < t[None, :]) & (e[:, None] == 1)
    correct = (risk[:, None] > risk[None, :]) & comparable
    return float(correct.sum() / max(comparable.sum(), 1))
