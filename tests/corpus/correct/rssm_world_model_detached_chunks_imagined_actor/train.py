"""Dreamer-style agent on a 1-D 'reach the origin' task. The world model is fitted on long
replayed trajectories cut into chunks; the recurrent state is carried from chunk to chunk
in a dataclass, detached at the chunk boundary (truncated BPTT). After every world-model
update the actor is trained on trajectories imagined by the world model, starting from
the (detached) posterior states of the chunk; its gradient flows back through the learned
dynamics, and the world model's own optimizer clears what that leaves behind."""
from dataclasses import dataclass

import torch
import torch.distributions as D
import torch.nn as nn
import torch.nn.functional as F

OBS, ACT, DETER, STOCH, CHUNK, HORIZON = 3, 1, 24, 4, 4, 5


@dataclass
class CarryState:
    deter: torch.Tensor
    chunks_seen: int = 0


class RSSM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(OBS, 16)
        self.cell = nn.GRUCell(STOCH + ACT, DETER)
        self.prior = nn.Linear(DETER, 2 * STOCH)
        self.posterior = nn.Linear(DETER + 16, 2 * STOCH)
        self.decode = nn.Linear(DETER + STOCH, OBS)
        self.reward = nn.Linear(DETER + STOCH, 1)

    @staticmethod
    def dist(stats):
        mu, s = stats.chunk(2, -1)
        return D.Normal(mu, F.softplus(s) + 0.1)

    def img_step(self, deter, action):
        z = self.dist(self.prior(deter)).rsample()
        deter = self.cell(torch.cat([z, action], -1), deter)
        return deter, self.reward(torch.cat([deter, z], -1)).squeeze(-1)


def rollouts(batch, length):
    x = torch.randn(batch, 1)
    obs, acts, rews = [], [], []
    for _ in range(length):
        a = 0.5 * torch.randn(batch, ACT)
        x = x + 0.3 * a
        obs.append(torch.cat([x, a, x.abs()], -1))
        acts.append(a)
        rews.append(-x.abs().squeeze(-1))
    return torch.stack(obs, 1), torch.stack(acts, 1), torch.stack(rews, 1)


torch.manual_seed(3)
world = RSSM()
actor = nn.Sequential(nn.Linear(DETER, 32), nn.ELU(), nn.Linear(32, ACT), nn.Tanh())
world_opt = torch.optim.Adam(world.parameters(), lr=3e-3)
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)

obs, acts, rews = rollouts(8, 4 * CHUNK)
state = CarryState(deter=torch.zeros(8, DETER))
for k in range(4):
    span = slice(k * CHUNK, (k + 1) * CHUNK)
    emb = world.embed(obs[:, span])
    deter, kl, recon, rew_loss, posteriors = state.deter, 0.0, 0.0, 0.0, []
    for t in range(CHUNK):
        prior = world.dist(world.prior(deter))
        post = world.dist(world.posterior(torch.cat([deter, emb[:, t]], -1)))
        z = post.rsample()
        kl = kl + D.kl_divergence(post, prior).sum(-1).mean() / CHUNK
        deter = world.cell(torch.cat([z, acts[:, span][:, t]], -1), deter)
        feat = torch.cat([deter, z], -1)
        recon = recon + F.mse_loss(world.decode(feat), obs[:, span][:, t]) / CHUNK
        reward_pred = world.reward(feat).squeeze(-1)
        rew_loss = rew_loss + F.mse_loss(reward_pred, rews[:, span][:, t]) / CHUNK
        posteriors.append(deter)
    model_loss = recon + rew_loss + 0.5 * kl
    world_opt.zero_grad()
    model_loss.backward()
    world_opt.step()
    state.deter = deter.detach()
    state.chunks_seen += 1

    start = torch.cat(posteriors).detach()
    imagined_return = 0.0
    for h in range(HORIZON):
        start, r = world.img_step(start, actor(start))
        imagined_return = imagined_return + (0.95 ** h) * r
    actor_loss = -imagined_return.mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
    print(f"chunk {k} model loss {model_loss.item():.4f} kl {kl.item():.4f} "
          f"actor loss {actor_loss.item():.4f}")

print(f"world checksum {sum(p.sum().item() for p in world.parameters()):.6f}")
print(f"actor checksum {sum(p.sum().item() for p in actor.parameters()):.6f}")
