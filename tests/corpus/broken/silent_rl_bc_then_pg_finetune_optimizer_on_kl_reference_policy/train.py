"""Routing bandit: a policy is first behaviour-cloned from a noisy rule-based router, then
fine-tuned with REINFORCE plus a KL penalty that keeps it close to the behaviour-cloned
reference policy (the usual RL fine-tuning recipe)."""
import copy

import torch
import torch.nn.functional as F

from agent import Agent

OBS, ACTIONS, BATCH = 6, 4, 32


def contexts(n=BATCH):
    return torch.randn(n, OBS)


def best_route(obs):
    return obs[:, :ACTIONS].argmax(1)


def reward(obs, action):
    return (action == best_route(obs)).float() - 0.1 * (action == 0).float()


def behaviour_clone(agent, steps=3):
    opt = torch.optim.Adam(agent.policy.parameters(), lr=1e-2)
    for step in range(steps):
        obs = contexts()
        noisy = torch.where(torch.rand(BATCH) < 0.3, torch.randint(0, ACTIONS, (BATCH,)),
                            best_route(obs))
        loss = F.cross_entropy(agent.policy.body(obs), noisy)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"bc {step} loss {loss.item():.4f}")


def rl_finetune(agent, iters=5, beta=0.05):
    optimizer = torch.optim.Adam(agent.policy.parameters(), lr=5e-3)
    reference = agent.policy
    agent.policy = copy.deepcopy(reference)  # the BC policy stays put as the KL anchor
    baseline = 0.0
    for it in range(iters):
        obs = contexts()
        action, log_prob, dist = agent.act(obs)
        with torch.no_grad():
            ref_dist = reference(obs)
        r = reward(obs, action)
        kl = torch.distributions.kl_divergence(dist, ref_dist).mean()
        loss = -((r - baseline) * log_prob).mean() + beta * kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        baseline = 0.9 * baseline + 0.1 * r.mean().item()
        print(f"rl {it} reward {r.mean().item():.3f} kl {kl.item():.4f}")


torch.manual_seed(0)
agent = Agent(OBS, ACTIONS)
behaviour_clone(agent)
rl_finetune(agent)
print("checksum", round(sum(p.sum().item() for p in agent.policy.parameters()), 4))
