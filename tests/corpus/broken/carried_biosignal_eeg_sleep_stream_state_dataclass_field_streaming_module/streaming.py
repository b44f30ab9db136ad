"""Night-long streaming inference/training helpers for the sleep stager."""
from dataclasses import dataclass, field
from typing import Optional

import torch


@dataclass
class StreamState:
    """What the stager remembers between consecutive 30 s epochs."""
    hidden: Optional[torch.Tensor] = None
    epochs_seen: int = 0
    stage_counts: dict = field(default_factory=dict)


def advance(model, state, window):
    """Score one 30 s window and move the recording state forward."""
    logits, hidden = model(window, state.hidden)
    state.hidden = hidden
    state.epochs_seen += 1
    stage = int(logits.argmax(dim=-1)[0])
    state.stage_counts[stage] = state.stage_counts.get(stage, 0) + 1
    return logits
