import torch
import torch.nn as nn
import torch.nn.functional as F


class WorldModel(nn.Module):
    """Deterministic latent dynamics model: encoder, transition, decoder and reward head."""

    def __init__(self, obs_dim, act_dim, latent_dim):
        super().__init__()
        self.encoder = nn.Linear(obs_dim, latent_dim)
        self.transition = nn.GRUCell(act_dim, latent_dim)
        self.decoder = nn.Linear(latent_dim, obs_dim)
        self.reward_head = nn.Linear(latent_dim, 1)

    def encode(self, obs):
        return torch.tanh(self.encoder(obs))

    def step(self, z, action):
        return self.transition(action, z)

    def loss(self, obs, actions, rewards):
        # obs: (T+1, B, obs_dim), actions: (T, B, act_dim), rewards: (T, B, 1)
        z = self.encode(obs)
        recon = F.mse_loss(self.decoder(z), obs)
        pred_next = self.step(z[:-1].flatten(0, 1), actions.flatten(0, 1))
        dyn = F.mse_loss(pred_next, z[1:].flatten(0, 1).detach())
        rew = F.mse_loss(self.reward_head(pred_next), rewards.flatten(0, 1))
        return recon + dyn + rew, z


def imagine_return(wm, actor, start, horizon, gamma):
    z, total, discount = start, 0.0, 1.0
    for _ in range(horizon):
        action = actor(z)
        z = wm.step(z, action)
        total = total + discount * wm.reward_head(z)
        discount *= gamma
    return total
