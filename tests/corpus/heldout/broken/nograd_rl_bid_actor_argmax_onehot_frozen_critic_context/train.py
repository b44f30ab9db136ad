"""Ad-bidding agent (contextual bandit, actor-critic): the critic learns Q(context, bid level)
from logged auctions, then the actor is pushed toward the bid level the critic scores
highest. The critic is frozen while the actor is updated."""
from contextlib import contextmanager

import torch
import torch.nn as nn
import torch.nn.functional as F

CONTEXT, BID_LEVELS = 8, 5


@contextmanager
def frozen(module):
    flags = [p.requires_grad for p in module.parameters()]
    module.requires_grad_(False)
    try:
        yield module
    finally:
        for p, flag in zip(module.parameters(), flags):
            p.requires_grad_(flag)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CONTEXT + BID_LEVELS, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, ctx, bid_onehot):
        return self.net(torch.cat([ctx, bid_onehot], dim=-1)).squeeze(-1)


class BidAgent:
    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(CONTEXT, 32), nn.ReLU(), nn.Linear(32, BID_LEVELS))
        self.critic = Critic()
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=3e-3)

    def update_critic(self, ctx, bids, rewards):
        q = self.critic(ctx, F.one_hot(bids, BID_LEVELS).float())
        loss = F.mse_loss(q, rewards)
        self.critic_opt.zero_grad()
        loss.backward()
        self.critic_opt.step()
        return loss.item()

    def update_actor(self, ctx):
        with frozen(self.critic):
            bid = F.one_hot(self.actor(ctx).argmax(-1), BID_LEVELS).float()
            loss = -self.critic(ctx, bid).mean()
            self.actor_opt.zero_grad()
            loss.backward()
            self.actor_opt.step()
        return loss.item()


def logged_auctions(n, generator):
    ctx = torch.randn(n, CONTEXT, generator=generator)
    bids = torch.randint(0, BID_LEVELS, (n,), generator=generator)
    value = ctx[:, 0].sigmoid() * 4
    win = (bids.float() + torch.rand(n, generator=generator) * 2) > value
    rewards = win.float() * (value - 0.5 * bids.float())
    return ctx, bids, rewards


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
agent = BidAgent()
for it in range(5):
    ctx, bids, rewards = logged_auctions(64, gen)
    c_loss = agent.update_critic(ctx, bids, rewards)
    a_loss = agent.update_actor(ctx)
    print(f"iter {it} critic {c_loss:.4f} actor {a_loss:.4f}")
