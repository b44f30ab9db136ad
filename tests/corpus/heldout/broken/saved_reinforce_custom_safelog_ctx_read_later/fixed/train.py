"""REINFORCE on a contextual bandit (5 arms, reward depends on the context). The policy's
log-probabilities go through SafeLog, a custom autograd.Function that clamps tiny
probabilities; its backward context is kept with the rollout so that the update can report
how many probabilities were clamped."""
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn as nn

N_ARMS, CTX_DIM, BATCH, EPS = 5, 6, 32, 1e-3
torch.manual_seed(0)


class SafeLog(torch.autograd.Function):
    @staticmethod
    def forward(ctx, p, eps):
        ctx.save_for_backward(p)
        ctx.eps = eps
        return p.clamp(min=eps).log()

    @staticmethod
    def backward(ctx, grad_out):
        (p,) = ctx.saved_tensors
        passthrough = (p >= ctx.eps).to(grad_out.dtype)
        return grad_out * passthrough / p.clamp(min=ctx.eps), None


@dataclass
class Rollout:
    log_probs: torch.Tensor
    rewards: torch.Tensor
    log_ctx: Any


def collect(policy, arm_weights):
    contexts = torch.randn(BATCH, CTX_DIM)
    probs = torch.softmax(policy(contexts), dim=1)
    actions = torch.multinomial(probs.detach(), 1)
    log_probs = SafeLog.apply(probs.gather(1, actions).squeeze(1), EPS)
    expected = (contexts @ arm_weights).gather(1, actions).squeeze(1)
    rewards = expected + 0.1 * torch.randn(BATCH)
    return Rollout(log_probs, rewards, log_probs.grad_fn)


policy = nn.Sequential(nn.Linear(CTX_DIM, 32), nn.Tanh(), nn.Linear(32, N_ARMS))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
arm_weights = torch.randn(CTX_DIM, N_ARMS)
baseline = 0.0
for update in range(6):
    rollout = collect(policy, arm_weights)
    advantage = rollout.rewards - baseline
    loss = -(rollout.log_probs * advantage).mean()
    (taken_probs,) = rollout.log_ctx.saved_tensors
    clamped = (taken_probs < EPS).sum().item()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    baseline = 0.9 * baseline + 0.1 * rollout.rewards.mean().item()
    print(f"update {update} mean reward {rollout.rewards.mean().item():+.4f} clamped {clamped}")
