"""Behaviour cloning on a 1-D reaching task: the policy imitates an expert that steps
towards the goal, and after every epoch it is evaluated by rolling it out."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
ACTIONS = torch.tensor([-1.0, 0.0, 1.0])     # left, stay, right


def expert_dataset(n):
    position = 10 * torch.rand(n) - 5
    goal = 10 * torch.rand(n) - 5
    gap = goal - position
    action = torch.where(gap.abs() < 0.5, 1, torch.where(gap > 0, 2, 0))
    return torch.stack([position, goal, gap], dim=1) / 5, action


def evaluate(policy, episodes=8, horizon=12):
    """Average final distance to the goal when the policy drives."""
    policy.eval()
    with torch.no_grad():
        position = 10 * torch.rand(episodes) - 5
        goal = 10 * torch.rand(episodes) - 5
        for _ in range(horizon):
            obs = torch.stack([position, goal, goal - position], dim=1) / 5
            position = position + ACTIONS[policy(obs).argmax(1)]
    policy.train()
    return (goal - position).abs().mean().item()


policy = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 3))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
obs_all, act_all = expert_dataset(192)

for epoch in range(3):
    for start in range(0, 192, 64):
        obs, actions = obs_all[start:start + 64], act_all[start:start + 64]
        logits = policy(obs)
        loss = F.cross_entropy(logits, actions)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} bc loss {loss.item():.4f} final distance {evaluate(policy):.3f}")
