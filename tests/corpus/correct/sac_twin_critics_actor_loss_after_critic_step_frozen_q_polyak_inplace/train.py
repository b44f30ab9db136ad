"""Soft actor-critic with twin critics, automatic entropy tuning and Polyak-averaged target
critics on a 1-D point-reaching task. Three optimizers are stepped in one update."""
import copy
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

OBS, ACT, HIDDEN = 3, 1, 32


def mlp(n_in, n_out):
    return nn.Sequential(nn.Linear(n_in, HIDDEN), nn.ReLU(inplace=True),
                         nn.Linear(HIDDEN, HIDDEN), nn.ReLU(inplace=True),
                         nn.Linear(HIDDEN, n_out))


class TwinCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.q1, self.q2 = mlp(OBS + ACT, 1), mlp(OBS + ACT, 1)

    def forward(self, obs, act):
        x = torch.cat([obs, act], -1)
        return self.q1(x).squeeze(-1), self.q2(x).squeeze(-1)


class SquashedGaussianActor(nn.Module):
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


class SAC:
    def __init__(self, gamma=0.95, tau=0.01):
        self.actor, self.critic = SquashedGaussianActor(), TwinCritic()
        self.critic_targ = copy.deepcopy(self.critic).requires_grad_(False)
        self.log_alpha = torch.zeros((), requires_grad=True)
        self.target_entropy = -float(ACT)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=3e-4)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=3e-3)
        self.gamma, self.tau = gamma, tau

    def update(self, obs, act, reward, next_obs):
        alpha = self.log_alpha.exp().detach()
        with torch.no_grad():
            next_act, next_logp = self.actor(next_obs)
            target = reward + self.gamma * (torch.min(*self.critic_targ(next_obs, next_act))
                                            - alpha * next_logp)
        q1, q2 = self.critic(obs, act)
        critic_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        # actor step against the critics as they are now; they get no gradient from it
        self.critic.requires_grad_(False)
        new_act, logp = self.actor(obs)
        actor_loss = (alpha * logp - torch.min(*self.critic(obs, new_act))).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()
        self.critic.requires_grad_(True)

        alpha_loss = -(self.log_alpha * (logp.detach() + self.target_entropy)).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()

        with torch.no_grad():
            for p, p_targ in zip(self.critic.parameters(), self.critic_targ.parameters()):
                p_targ.mul_(1 - self.tau).add_(p, alpha=self.tau)
        return critic_loss.item(), actor_loss.item(), alpha.item()


def main(updates=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    agent = SAC()
    for step in range(updates):
        q_loss, pi_loss, alpha = agent.update(*sample_batch(64, gen))
        print(f"update {step} critic {q_loss:.4f} actor {pi_loss:.4f} alpha {alpha:.4f}")
    params = itertools.chain(agent.actor.parameters(), agent.critic.parameters())
    print(f"param checksum {sum(p.detach().double().sum().item() for p in params):.6f}")


if __name__ == "__main__":
    main()
