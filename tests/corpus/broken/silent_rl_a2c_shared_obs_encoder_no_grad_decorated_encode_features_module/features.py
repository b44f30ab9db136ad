"""Observation features shared by the actor and the critic."""
import torch


@torch.no_grad()
def encode(encoder, obs):
    """Called once per env step while acting, so no graph is kept."""
    return encoder(obs)
