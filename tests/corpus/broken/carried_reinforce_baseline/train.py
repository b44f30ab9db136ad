"""Contextual bandit with REINFORCE; a running baseline of the policy's expected payoff."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_CTX, N_ARMS, BATCH, ITERS = 6, 4, 16, 5

policy = nn.Sequential(nn.Linear(N_CTX, 32), nn.ReLU(), nn.Linear(32, N_ARMS))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
arm_weights = torch.randn(N_CTX, N_ARMS)

baseline = torch.zeros(())
for it in range(ITERS):
    ctx = torch.randn(BATCH, N_CTX)
    payoff = ctx @ arm_weights
    probs = torch.softmax(policy(ctx), dim=-1)
    actions = torch.multinomial(probs, 1)
    reward = payoff.gather(1, actions).squeeze(1)
    expected = (probs * payoff).sum(-1)
    baseline = 0.9 * baseline + 0.1 * expected.mean()
    log_prob = torch.log(probs.gather(1, actions).squeeze(1))
    loss = -((reward - baseline) * log_prob).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it} reward {reward.mean().item():.4f} baseline {baseline.item():.4f}")
