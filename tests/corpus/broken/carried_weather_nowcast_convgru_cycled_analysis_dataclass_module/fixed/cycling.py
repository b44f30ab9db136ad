"""Forecast cycling for the nowcaster: the model state reached at the end of one window
(the "analysis") is the first guess the next window starts from, as in a data-assimilation
cycle. The state of the cycle is kept in a small dataclass so the trainer and the
evaluation script can share it."""
from dataclasses import dataclass, field
from typing import List, Optional

import torch


@dataclass
class CycleState:
    analysis: Optional[torch.Tensor] = None
    windows_done: int = 0
    window_rmse: List[float] = field(default_factory=list)


def reset(state: CycleState):
    state.analysis = None
    state.windows_done = 0
    state.window_rmse.clear()


def run_window(model, state: CycleState, window):
    """window: (T, B, C, H, W) observed fields. Returns the T-1 one-step forecasts."""
    h = state.analysis
    if h is None:
        h = model.initial_state(window.size(1))
    else:
        h = h.detach()  # truncated BPTT: each window backpropagates through itself only
    forecasts = []
    for t in range(window.size(0) - 1):
        h = model.assimilate(window[t], h)
        forecasts.append(model.forecast(h))
    state.analysis = h
    state.windows_done += 1
    return torch.stack(forecasts)
