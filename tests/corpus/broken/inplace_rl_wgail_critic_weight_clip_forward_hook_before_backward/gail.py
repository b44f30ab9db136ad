"""Wasserstein GAIL pieces: a state-action critic kept Lipschitz by weight clipping."""
import torch
import torch.nn as nn

CLIP = 0.05


class Critic(nn.Module):
    def __init__(self, n_in, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.LeakyReLU(0.2),
                                  nn.Linear(hidden, hidden), nn.LeakyReLU(0.2))
        self.head = nn.Linear(hidden, 1, bias=False)  # a constant cancels in the W-distance

    def forward(self, sa):
        return self.head(self.body(sa)).squeeze(-1)


def clip_weights_(critic, c=CLIP):
    with torch.no_grad():
        for p in critic.parameters():
            p.clamp_(-c, c)


def clip_after_forward(module, inputs, output):
    """Forward hook: the critic must stay inside the clipping box whenever it is used."""
    clip_weights_(module)
