"""A deterministic latent world model for a 1-D point-mass task (Dreamer-style, small): an
observation encoder, a GRU transition, a prior that predicts the next embedding from the state
alone (used for imagination), and decoder / reward heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F

OBS, ACT, EMBED, DETER = 4, 1, 16, 24


class WorldModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(OBS, EMBED), nn.ELU())
        self.cell = nn.GRUCell(EMBED + ACT, DETER)
        self.prior = nn.Linear(DETER, EMBED)
        self.decoder = nn.Linear(DETER, OBS)
        self.reward = nn.Linear(DETER, 1)

    def observe(self, obs, actions):
        """Filter a batch of sequences; returns the loss and the states visited."""
        batch, steps, _ = obs.shape
        h = torch.zeros(batch, DETER)
        embeds = self.encoder(obs)
        states, recon, prior_err = [], 0.0, 0.0
        for t in range(steps - 1):
            prior_err = prior_err + F.mse_loss(self.prior(h), embeds[:, t].detach())
            h = self.cell(torch.cat([embeds[:, t], actions[:, t]], -1), h)
            states.append(h)
        states = torch.stack(states, 1)
        recon = F.mse_loss(self.decoder(states), obs[:, 1:])
        return recon, prior_err / (steps - 1), states

    def imagine(self, start, actor, horizon):
        """Roll the actor forward in latent space; returns the predicted rewards."""
        h, rewards = start, []
        for _ in range(horizon):
            a = actor(h)
            h = self.cell(torch.cat([self.prior(h), a], -1), h)
            rewards.append(self.reward(h).squeeze(-1))
        return torch.stack(rewards, 1)
