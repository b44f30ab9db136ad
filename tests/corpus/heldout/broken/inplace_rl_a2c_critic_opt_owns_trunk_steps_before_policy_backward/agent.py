"""Advantage actor-critic with a shared trunk. The critic optimizer owns the trunk (the
value loss shapes the representation); the actor optimizer owns the policy head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=48):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh())
        self.policy_head = nn.Linear(hidden, n_actions)
        self.value_head = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.policy_head(h), self.value_head(h).squeeze(-1)


class A2CLearner:
    def __init__(self, net, lr_actor=3e-3, lr_critic=1e-2, entropy_coef=0.01):
        self.net = net
        self.actor_opt = torch.optim.Adam(net.policy_head.parameters(), lr=lr_actor)
        self.critic_opt = torch.optim.Adam(
            list(net.trunk.parameters()) + list(net.value_head.parameters()), lr=lr_critic)
        self.entropy_coef = entropy_coef

    def update(self, obs, actions, returns):
        logits, values = self.net(obs)
        dist = torch.distributions.Categorical(logits=logits)

        value_loss = F.mse_loss(values, returns)
        self.critic_opt.zero_grad()
        value_loss.backward(retain_graph=True)
        self.critic_opt.step()

        advantages = (returns - values).detach()
        policy_loss = -(dist.log_prob(actions) * advantages).mean()
        policy_loss = policy_loss - self.entropy_coef * dist.entropy().mean()
        self.actor_opt.zero_grad()
        policy_loss.backward()
        self.actor_opt.step()
        return value_loss.item(), policy_loss.item()
