"""Execution contexts shared by the training and evaluation loops."""
import contextlib

import torch


def forward_context(amp: bool, grad: bool):
    """Mixed precision on GPU when `amp`; skip autograd bookkeeping when `grad` is off."""
    if amp and torch.cuda.is_available():
        return torch.autocast("cuda", dtype=torch.float16)
    return contextlib.nullcontext() if grad else torch.no_grad()
