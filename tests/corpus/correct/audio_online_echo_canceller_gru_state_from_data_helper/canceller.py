"""Neural acoustic echo canceller: a GRU over short frames of the far-end (loudspeaker)
signal predicts the echo that reaches the microphone."""
import math

import torch
import torch.nn as nn

FRAME = 16


class EchoPredictor(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.frontend = nn.Linear(2 * FRAME, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.synth = nn.Linear(hidden, FRAME)

    def forward(self, far_frames, prev_far, state):
        # far_frames: (batch, n_frames, FRAME); prev_far: the frame before the block
        shifted = torch.cat([prev_far.unsqueeze(1), far_frames[:, :-1]], dim=1)
        feats = torch.relu(self.frontend(torch.cat([far_frames, shifted], dim=-1)))
        out, state = self.rnn(feats, state)
        return self.synth(out), state


def simulate_room(seconds, rate, gen):
    n = int(seconds * rate)
    t = torch.arange(n) / rate
    far = 0.6 * torch.sin(2 * math.pi * 220 * t) * torch.sin(2 * math.pi * 1.5 * t)
    far = far + 0.2 * torch.randn(n, generator=gen)
    rir = torch.exp(-torch.arange(24.0) / 6.0) * torch.randn(24, generator=gen) * 0.5
    echo = torch.nn.functional.conv1d(far.view(1, 1, -1), rir.flip(0).view(1, 1, -1),
                                      padding=23)[0, 0, :n]
    near = 0.05 * torch.randn(n, generator=gen)
    return far, echo + near


def erle_db(mic, residual):
    return 10 * math.log10(mic.pow(2).mean().item() / max(residual.pow(2).mean().item(), 1e-12))
