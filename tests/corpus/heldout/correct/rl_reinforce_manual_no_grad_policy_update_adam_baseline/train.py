"""REINFORCE with a learned baseline on a 3-armed contextual bandit. The policy is updated
by hand (clipped SGD with momentum written out under torch.no_grad(), as in the course
notes); the baseline uses Adam. Each iteration runs a fresh forward pass after the update."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_CTX, N_ARMS = 6, 3
PAYOFF = torch.randn(N_CTX, N_ARMS)

policy = nn.Sequential(nn.Linear(N_CTX, 32), nn.Tanh(), nn.Linear(32, N_ARMS))
baseline = nn.Sequential(nn.Linear(N_CTX, 16), nn.Tanh(), nn.Linear(16, 1))
baseline_opt = torch.optim.Adam(baseline.parameters(), lr=1e-2)
velocity = {name: torch.zeros_like(p) for name, p in policy.named_parameters()}
LR, MOMENTUM, CLIP = 0.1, 0.9, 1.0


def sgd_momentum_(module):
    with torch.no_grad():
        for name, p in module.named_parameters():
            g = p.grad.clamp(-CLIP, CLIP)
            velocity[name].mul_(MOMENTUM).add_(g)
            p.sub_(LR * velocity[name])
            p.grad = None


for it in range(8):
    ctx_idx = torch.randint(0, N_CTX, (64,))
    ctx = torch.nn.functional.one_hot(ctx_idx, N_CTX).float()
    dist = torch.distributions.Categorical(logits=policy(ctx))
    arms = dist.sample()
    reward = PAYOFF[ctx_idx, arms] + 0.1 * torch.randn(64)

    value = baseline(ctx).squeeze(1)
    advantage = reward - value.detach()
    policy_loss = -(dist.log_prob(arms) * advantage).mean() - 0.01 * dist.entropy().mean()
    policy_loss.backward()
    sgd_momentum_(policy)

    value_loss = (value - reward).pow(2).mean()
    baseline_opt.zero_grad()
    value_loss.backward()
    baseline_opt.step()
    print(f"iter {it} mean reward {reward.mean().item():.4f} value loss {value_loss.item():.4f}")

checksum = sum(p.detach().sum().item() for p in list(policy.parameters()) + list(baseline.parameters()))
print(f"checksum {checksum:.4f}")
