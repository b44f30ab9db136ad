"""Small PPO helpers shared by the agents in this repo."""
import torch


def discounted_advantages(rewards, values, dones, gamma=0.97, lam=0.9):
    """GAE over a (T,) rollout; values has T + 1 entries (bootstrap last)."""
    advantages = torch.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(rewards.size(0))):
        not_done = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * not_done - values[t]
        running = delta + gamma * lam * not_done * running
        advantages[t] = running
    return advantages, advantages + values[:-1]


def clipped_surrogate(new_logp, old_logp, advantages, clip=0.2):
    ratio = torch.exp(new_logp - old_logp)
    unclipped = ratio * advantages
    clipped = ratio.clamp_(1.0 - clip, 1.0 + clip) * advantages
    return -torch.min(unclipped, clipped).mean()
