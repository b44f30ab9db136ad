"""Tiny training engine shared by the team's audio recipes.

    with optimization_step(optimizer, model.parameters()) as step:
        ...
        step.loss = loss

On leaving the block the engine backwards step.loss, clips the gradients and steps the
optimizer, so recipes never call backward themselves."""
from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch.nn.utils import clip_grad_norm_


@dataclass
class StepResult:
    loss: torch.Tensor = None
    grad_norm: float = 0.0


@contextmanager
def optimization_step(optimizer, params, max_norm=1.0):
    params = list(params)
    result = StepResult()
    optimizer.zero_grad(set_to_none=True)
    yield result
    if result.loss is None:
        raise ValueError("set step.loss inside the optimization_step block")
    result.loss.backward()
    result.grad_norm = float(clip_grad_norm_(params, max_norm))
    optimizer.step()


def log_every(step, every, **metrics):
    if step % every == 0:
        body = " ".join(f"{k} {v:.4f}" for k, v in metrics.items())
        print(f"step {step}: {body}")
