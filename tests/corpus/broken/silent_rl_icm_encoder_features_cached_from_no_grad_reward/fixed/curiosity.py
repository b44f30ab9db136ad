"""Intrinsic Curiosity Module (Pathak et al. 2017): a feature encoder trained by an inverse
dynamics model, and a forward model whose prediction error in feature space is the bonus."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ICM(nn.Module):
    def __init__(self, obs_dim, n_actions, feat_dim=16, beta=0.2, eta=0.5):
        super().__init__()
        self.n_actions, self.beta, self.eta = n_actions, beta, eta
        self.encoder = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, feat_dim))
        self.forward_model = nn.Sequential(
            nn.Linear(feat_dim + n_actions, 32), nn.ReLU(), nn.Linear(32, feat_dim))
        self.inverse_model = nn.Sequential(
            nn.Linear(2 * feat_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self._batch = None

    def _predict_next(self, phi, actions):
        return self.forward_model(torch.cat([phi, F.one_hot(actions, self.n_actions).float()], -1))

    def intrinsic_reward(self, obs, next_obs, actions):
        """Curiosity bonus for a whole rollout; keeps the observations for the ICM update."""
        with torch.no_grad():
            phi, phi_next = self.encoder(obs), self.encoder(next_obs)
            error = 0.5 * (self._predict_next(phi, actions) - phi_next).pow(2).sum(-1)
        self._batch = (obs, next_obs)
        return self.eta * error

    def loss(self, actions):
        obs, next_obs = self._batch
        phi, phi_next = self.encoder(obs), self.encoder(next_obs)
        forward_loss = 0.5 * (self._predict_next(phi, actions) - phi_next.detach()).pow(2).sum(-1).mean()
        inverse_logits = self.inverse_model(torch.cat([phi, phi_next], -1))
        inverse_loss = F.cross_entropy(inverse_logits, actions)
        return (1 - self.beta) * inverse_loss + self.beta * forward_loss, forward_loss, inverse_loss
