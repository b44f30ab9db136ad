"""GAIL-style imitation on a contextual one-step task: a discriminator separates expert
(state, action) pairs from the policy's, regularised by a gradient penalty on interpolated
pairs (torch.autograd.grad with create_graph=True so the penalty itself is differentiable);
the policy is trained with REINFORCE on rewards read from the discriminator under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(17)
S_DIM, N_ACT, BATCH, GP_WEIGHT = 5, 3, 32, 5.0

expert_w = torch.randn(S_DIM, N_ACT)
policy = nn.Sequential(nn.Linear(S_DIM, 24), nn.Tanh(), nn.Linear(24, N_ACT))
disc = nn.Sequential(nn.Linear(S_DIM + N_ACT, 24), nn.Tanh(), nn.Linear(24, 1))
opt_pi = torch.optim.Adam(policy.parameters(), lr=5e-3)
opt_d = torch.optim.Adam(disc.parameters(), lr=2e-3)


def pair(states, actions):
    return torch.cat([states, F.one_hot(actions, N_ACT).float()], dim=1)


def gradient_penalty(expert_pairs, policy_pairs):
    alpha = torch.rand(expert_pairs.size(0), 1)
    mixed = (alpha * expert_pairs + (1 - alpha) * policy_pairs).requires_grad_(True)
    scores = disc(mixed)
    (grads,) = torch.autograd.grad(scores.sum(), mixed, create_graph=True)
    return (grads.norm(2, dim=1) - 1).pow(2).mean()


for it in range(6):
    states = torch.randn(BATCH, S_DIM)
    expert_actions = (states @ expert_w).argmax(1)
    with torch.no_grad():
        policy_actions = Categorical(logits=policy(states)).sample()

    expert_pairs, policy_pairs = pair(states, expert_actions), pair(states, policy_actions)
    d_expert, d_policy = disc(expert_pairs), disc(policy_pairs)
    d_loss = (F.binary_cross_entropy_with_logits(d_expert, torch.ones_like(d_expert))
              + F.binary_cross_entropy_with_logits(d_policy, torch.zeros_like(d_policy)))
    gp = gradient_penalty(expert_pairs, policy_pairs)
    opt_d.zero_grad()
    (d_loss + GP_WEIGHT * gp).backward()
    opt_d.step()

    with torch.no_grad():
        rewards = -F.logsigmoid(-disc(policy_pairs)).squeeze(1)
        advantages = rewards - rewards.mean()
    dist = Categorical(logits=policy(states))
    pi_loss = -(dist.log_prob(policy_actions) * advantages).mean() - 0.01 * dist.entropy().mean()
    opt_pi.zero_grad()
    pi_loss.backward()
    opt_pi.step()
    match = (policy_actions == expert_actions).float().mean().item()
    print(f"iter {it} d {d_loss.item():.6f} gp {gp.item():.6f} pi {pi_loss.item():.6f} match {match:.3f}")

print(f"checksum pi {sum(p.sum().item() for p in policy.parameters()):.6f} "
      f"D {sum(p.sum().item() for p in disc.parameters()):.6f}")
