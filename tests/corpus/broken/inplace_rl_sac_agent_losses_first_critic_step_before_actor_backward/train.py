"""Soft actor-critic on a 1-D point-reaching task with twin critics and a fixed entropy
temperature. The agent computes all of its losses first and then steps each optimizer in
turn."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

OBS, ACT, HIDDEN = 3, 1, 32


def mlp(n_in, n_out):
    return nn.Sequential(nn.Linear(n_in, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN),
                         nn.ReLU(), nn.Linear(HIDDEN, n_out))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = mlp(OBS + ACT, 1)

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], -1)).squeeze(-1)


class GaussianActor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = mlp(OBS, 2 * ACT)

    def forward(self, obs):
        mean, log_std = self.net(obs).chunk(2, -1)
        dist = Normal(mean, log_std.clamp(-5, 2).exp())
        raw = dist.rsample()
        action = torch.tanh(raw)
        log_prob = (dist.log_prob(raw) - torch.log(1 - action.pow(2) + 1e-6)).sum(-1)
        return action, log_prob


def sample_batch(n, gen):
    obs = torch.rand(n, OBS, generator=gen) * 2 - 1
    act = torch.rand(n, ACT, generator=gen) * 2 - 1
    next_obs = obs.clone()
    next_obs[:, 0] = (obs[:, 0] + 0.1 * act[:, 0]).clamp(-1, 1)
    reward = -(next_obs[:, 0] - obs[:, 1]).abs()
    return obs, act, reward, next_obs


class SACAgent:
    def __init__(self, gamma=0.95, alpha=0.1, tau=0.01):
        self.actor = GaussianActor()
        self.q1, self.q2 = Critic(), Critic()
        self.q1_targ, self.q2_targ = copy.deepcopy(self.q1), copy.deepcopy(self.q2)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic_opt = torch.optim.Adam(
            list(self.q1.parameters()) + list(self.q2.parameters()), lr=3e-4)
        self.gamma, self.alpha, self.tau = gamma, alpha, tau

    def compute_losses(self, obs, act, reward, next_obs):
        with torch.no_grad():
            next_act, next_logp = self.actor(next_obs)
            q_next = torch.min(self.q1_targ(next_obs, next_act), self.q2_targ(next_obs, next_act))
            target = reward + self.gamma * (q_next - self.alpha * next_logp)
        critic_loss = F.mse_loss(self.q1(obs, act), target) + F.mse_loss(self.q2(obs, act), target)
        new_act, logp = self.actor(obs)
        q_new = torch.min(self.q1(obs, new_act), self.q2(obs, new_act))
        actor_loss = (self.alpha * logp - q_new).mean()
        return critic_loss, actor_loss

    def update(self, batch):
        critic_loss, actor_loss = self.compute_losses(*batch)
        for optimizer, loss in ((self.critic_opt, critic_loss), (self.actor_opt, actor_loss)):
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            for net, targ in ((self.q1, self.q1_targ), (self.q2, self.q2_targ)):
                for p, p_targ in zip(net.parameters(), targ.parameters()):
                    p_targ.lerp_(p, self.tau)
        return critic_loss.item(), actor_loss.item()


def main(updates=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    agent = SACAgent()
    for step in range(updates):
        q_loss, pi_loss = agent.update(sample_batch(64, gen))
        print(f"update {step} critic {q_loss:.4f} actor {pi_loss:.4f}")


if __name__ == "__main__":
    main()
