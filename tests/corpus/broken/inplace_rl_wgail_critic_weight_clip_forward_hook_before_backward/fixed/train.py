"""WGAIL on a chain MDP: the expert always walks right; a softmax policy is trained with
REINFORCE on rewards from a Wasserstein critic (gail.py) that separates expert from policy
state-action pairs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gail import Critic, clip_weights_

N_STATES, N_ACTIONS, HORIZON = 6, 2, 8


def one_hot_sa(states, actions):
    return torch.cat([F.one_hot(states, N_STATES), F.one_hot(actions, N_ACTIONS)], dim=-1).float()


def step_states(states, actions):
    return (states + 2 * actions - 1).clamp(0, N_STATES - 1)


def expert_pairs(n, gen):
    states = torch.randint(0, N_STATES, (n,), generator=gen)
    return one_hot_sa(states, torch.ones(n, dtype=torch.long))


def rollout(policy, n_envs, gen):
    states = torch.zeros(n_envs, dtype=torch.long)
    all_s, all_a, all_logp = [], [], []
    for _ in range(HORIZON):
        logits = policy(F.one_hot(states, N_STATES).float())
        actions = torch.multinomial(logits.softmax(-1), 1, generator=gen).squeeze(1)
        all_s.append(states)
        all_a.append(actions)
        all_logp.append(logits.log_softmax(-1).gather(1, actions.unsqueeze(1)).squeeze(1))
        states = step_states(states, actions)
    return torch.stack(all_s), torch.stack(all_a), torch.stack(all_logp)


def discounted(rewards, gamma=0.9):
    out, running = torch.zeros_like(rewards), torch.zeros(rewards.size(1))
    for t in reversed(range(rewards.size(0))):
        running = rewards[t] + gamma * running
        out[t] = running
    return out


def main(iterations=6, n_envs=16, critic_steps=2):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    policy = nn.Sequential(nn.Linear(N_STATES, 32), nn.Tanh(), nn.Linear(32, N_ACTIONS))
    critic = Critic(N_STATES + N_ACTIONS)
    pi_opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    critic_opt = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
    for it in range(iterations):
        states, actions, logp = rollout(policy, n_envs, gen)
        policy_sa = one_hot_sa(states.flatten(), actions.flatten())
        for _ in range(critic_steps):
            d_expert = critic(expert_pairs(policy_sa.size(0), gen))
            d_policy = critic(policy_sa)
            critic_loss = d_policy.mean() - d_expert.mean()
            critic_opt.zero_grad()
            critic_loss.backward()
            critic_opt.step()
            clip_weights_(critic)
        with torch.no_grad():
            rewards = critic(policy_sa).view(HORIZON, n_envs)
        returns = discounted(rewards)
        adv = (returns - returns.mean()) / (returns.std() + 1e-6)
        pi_loss = -(logp * adv).mean()
        pi_opt.zero_grad()
        pi_loss.backward()
        pi_opt.step()
        print(f"iter {it} critic {critic_loss.item():.4f} "
              f"right-moves {actions.float().mean().item():.3f}")


if __name__ == "__main__":
    main()
