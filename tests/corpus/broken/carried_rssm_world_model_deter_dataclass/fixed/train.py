"""Model-based RL: a small recurrent state-space world model (a deterministic GRU path and a
Gaussian latent) is fitted to long replayed trajectories of a point-mass environment. The
trajectories are too long to unroll at once, so they are cut into chunks and the state at
the end of one chunk starts the next one, as in Dreamer's replay training."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.distributions as D
import torch.nn as nn
import torch.nn.functional as F

OBS, ACT, DETER, STOCH, EMBED, CHUNK = 6, 2, 32, 8, 32, 5


@dataclass
class RSSMState:
    deter: torch.Tensor
    steps: int = 0
    kl_log: List[float] = field(default_factory=list)


class WorldModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(OBS, EMBED), nn.ELU())
        self.cell = nn.GRUCell(STOCH + ACT, DETER)
        self.prior_net = nn.Linear(DETER, 2 * STOCH)
        self.post_net = nn.Linear(DETER + EMBED, 2 * STOCH)
        self.decoder = nn.Linear(DETER + STOCH, OBS)
        self.reward_head = nn.Linear(DETER + STOCH, 1)

    @staticmethod
    def gaussian(stats):
        mean, raw_std = stats.chunk(2, dim=-1)
        return D.Normal(mean, F.softplus(raw_std) + 0.1)

    def observe_chunk(self, obs, actions, deter):
        """Filters one chunk of observations; returns predictions, KL and the final state."""
        embed = self.encoder(obs)
        recon, reward_pred, kls = [], [], []
        for t in range(obs.size(1)):
            prior = self.gaussian(self.prior_net(deter))
            post = self.gaussian(self.post_net(torch.cat([deter, embed[:, t]], -1)))
            z = post.rsample()
            kls.append(D.kl_divergence(post, prior).sum(-1).mean())
            deter = self.cell(torch.cat([z, actions[:, t]], -1), deter)
            feat = torch.cat([deter, z], -1)
            recon.append(self.decoder(feat))
            reward_pred.append(self.reward_head(feat).squeeze(-1))
        return torch.stack(recon, 1), torch.stack(reward_pred, 1), torch.stack(kls).mean(), deter


def point_mass_rollouts(batch, length):
    pos, vel = torch.zeros(batch, 2), torch.zeros(batch, 2)
    obs, acts, rews = [], [], []
    for _ in range(length):
        a = torch.tanh(torch.randn(batch, ACT))
        vel = 0.9 * vel + 0.1 * a
        pos = pos + vel
        obs.append(torch.cat([pos, vel, a], -1))
        acts.append(a)
        rews.append(-pos.norm(dim=-1))
    return torch.stack(obs, 1), torch.stack(acts, 1), torch.stack(rews, 1)


def train(n_chunks=4, batch=6):
    torch.manual_seed(0)
    world = WorldModel()
    optimizer = torch.optim.Adam(world.parameters(), lr=3e-3)
    obs, actions, rewards = point_mass_rollouts(batch, n_chunks * CHUNK)
    state = RSSMState(deter=torch.zeros(batch, DETER))
    for k in range(n_chunks):
        span = slice(k * CHUNK, (k + 1) * CHUNK)
        recon, reward_pred, kl, deter = world.observe_chunk(obs[:, span], actions[:, span],
                                                            state.deter.detach())
        state.deter = deter
        state.steps += CHUNK
        loss = (F.mse_loss(recon, obs[:, span]) + F.mse_loss(reward_pred, rewards[:, span])
                + 0.5 * kl)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state.kl_log.append(kl.item())
        print(f"chunk {k} steps {state.steps} loss {loss.item():.4f} kl {kl.item():.4f}")
    return state


if __name__ == "__main__":
    train()
