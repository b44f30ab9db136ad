# Contextual bandit for choosing one of 4 recommendation slates per user
# context; REINFORCE with a running-mean reward baseline.
import torch
import torch.nn as nn
import torch.nn.functional as F

from stats import RunStats

CTX, ARMS, BATCH = 8, 4, 64


def reward_fn(ctx, arm, gen):
    best = ctx[:, :ARMS].argmax(dim=1)
    noise = 0.1 * torch.randn(ctx.shape[0], generator=gen)
    return (arm == best).float() + noise


def run(n_steps=6):
    torch.manual_seed(5)
    gen = torch.Generator().manual_seed(5)
    policy = nn.Sequential(nn.Linear(CTX, 32), nn.Tanh(), nn.Linear(32, ARMS))
    opt = torch.optim.Adam(policy.parameters(), lr=5e-3)
    stats = RunStats()
    for step in range(n_steps):
        ctx = torch.randn(BATCH, CTX, generator=gen)
        logp = F.log_softmax(policy(ctx), dim=1)
        arm = torch.multinomial(logp.exp().detach(), 1, generator=gen).squeeze(1)
        r = reward_fn(ctx, arm, gen)
        adv = r - stats.reward_ema
        chosen = logp.gather(1, arm[:, None]).squeeze(1)
        loss = -(adv * chosen).mean() - 0.01 * -(logp.exp() * logp).sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        stats.update(loss, r.mean().item())
        print(stats.summary())
    return policy


if __name__ == "__main__":
    policy = run()
    print("checksum", round(sum(p.sum().item() for p in policy.parameters()), 4))
