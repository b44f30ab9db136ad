"""A2C on a batch of 1-D corridor environments: move left/right, reward 1 at the right end,
a small step penalty; discounted returns over fixed-length rollouts."""
import torch

from agent import A2CLearner, ActorCritic

torch.manual_seed(0)
N_ENVS, LENGTH, HORIZON, GAMMA = 16, 6, 8, 0.95


def one_hot(pos):
    return torch.nn.functional.one_hot(pos, LENGTH).float()


def rollout(net):
    pos = torch.zeros(N_ENVS, dtype=torch.long)
    obs_buf, act_buf, rew_buf = [], [], []
    for _ in range(HORIZON):
        obs = one_hot(pos)
        with torch.no_grad():
            logits, _ = net(obs)
        action = torch.distributions.Categorical(logits=logits).sample()
        pos = (pos + 2 * action - 1).clamp(0, LENGTH - 1)
        reward = (pos == LENGTH - 1).float() - 0.05
        obs_buf.append(obs)
        act_buf.append(action)
        rew_buf.append(reward)
        pos = torch.where(pos == LENGTH - 1, torch.zeros_like(pos), pos)
    returns, running = [], torch.zeros(N_ENVS)
    for r in reversed(rew_buf):
        running = r + GAMMA * running
        returns.insert(0, running)
    return torch.cat(obs_buf), torch.cat(act_buf), torch.cat(returns)


net = ActorCritic(LENGTH, 2)
learner = A2CLearner(net)
for iteration in range(6):
    obs, actions, returns = rollout(net)
    v_loss, pi_loss = learner.update(obs, actions, returns)
    print(f"iter {iteration} value_loss {v_loss:.4f} policy_loss {pi_loss:.4f} "
          f"mean_return {returns.mean().item():.3f}")
