"""Random Network Distillation (Burda et al. 2018): a fixed, randomly initialised target
network and a predictor trained to match it; the prediction error is the novelty bonus."""
import torch.nn as nn


def mlp(obs_dim, feat_dim, hidden=32):
    return nn.Sequential(nn.Linear(obs_dim, hidden), nn.LeakyReLU(),
                         nn.Linear(hidden, hidden), nn.LeakyReLU(),
                         nn.Linear(hidden, feat_dim))


def make_rnd_networks(obs_dim, feat_dim):
    """Returns (predictor, target); the target is frozen at its random initialisation."""
    target = mlp(obs_dim, feat_dim)
    for p in target.parameters():
        p.requires_grad_(False)
    predictor = mlp(obs_dim, feat_dim)
    return predictor, target
