"""Advantage actor-critic on a 6-cell corridor with the reward in the rightmost cell.
Separate actor and critic networks share one Adam optimizer. main() is the 5-update
smoke run used before launching the long job."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CELLS, GAMMA, N_ENVS, HORIZON = 6, 0.9, 8, 8


def rollout(actor, critic):
    """Run N_ENVS corridors in parallel from the left end for HORIZON steps."""
    pos = torch.zeros(N_ENVS, dtype=torch.long)
    log_probs, values, rewards = [], [], []
    for _ in range(HORIZON):
        obs = F.one_hot(pos, N_CELLS).float()
        dist = torch.distributions.Categorical(logits=actor(obs))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        values.append(critic(obs).squeeze(1))
        pos = (pos + 2 * action - 1).clamp(0, N_CELLS - 1)
        rewards.append((pos == N_CELLS - 1).float())
    return torch.stack(log_probs), torch.stack(values), torch.stack(rewards)


def discounted_returns(rewards):
    returns = torch.zeros_like(rewards)
    running = torch.zeros(rewards.shape[1])
    for t in reversed(range(len(rewards))):
        running = rewards[t] + GAMMA * running
        returns[t] = running
    return returns


def main(updates=5):
    torch.manual_seed(0)
    actor = nn.Sequential(nn.Linear(N_CELLS, 16), nn.Tanh(), nn.Linear(16, 2))
    critic = nn.Sequential(nn.Linear(N_CELLS, 16), nn.Tanh(), nn.Linear(16, 1))
    optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=1e-2)
    for update in range(updates):
        log_probs, values, rewards = rollout(actor, critic)
        returns = discounted_returns(rewards)
        advantage = returns - values.detach()
        policy_loss = -(log_probs * advantage).mean()
        value_loss = F.mse_loss(values, returns)
        loss = policy_loss + 0.5 * value_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"update {update} policy {policy_loss.item():.4f} value {value_loss.item():.4f} "
              f"return {returns[0].mean().item():.3f}")
    return actor, critic


if __name__ == "__main__":
    main()
