"""Episodic actor-critic on a 1-D corridor (reach the right end, avoid the left end), warm-
started from a behaviour-cloning checkpoint. The Agent owns a policy and a value network,
each with its own Adam; Agent.load() restores a checkpoint whose policy may have a different
hidden width, so it rebuilds the policy from the stored config."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CELLS, START, MAX_STEPS, GAMMA = 7, 3, 10, 0.95


class Corridor:
    def reset(self):
        self.pos, self.t = START, 0
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.pos), N_CELLS).float()

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        self.t += 1
        if self.pos == N_CELLS - 1:
            return self.obs(), 1.0, True
        if self.pos == 0:
            return self.obs(), -1.0, True
        return self.obs(), -0.01, self.t >= MAX_STEPS


class PolicyNet(nn.Module):
    def __init__(self, obs_dim, hidden, n_actions):
        super().__init__()
        self.config = {"obs_dim": obs_dim, "hidden": hidden, "n_actions": n_actions}
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                  nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.body(obs)


class ValueNet(nn.Module):
    def __init__(self, obs_dim, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return self.body(obs).squeeze(-1)


class Agent:
    def __init__(self, obs_dim, n_actions, hidden=32, lr=1e-2):
        self.lr = lr
        self.policy = PolicyNet(obs_dim, hidden, n_actions)
        self.value = ValueNet(obs_dim)
        self.policy_opt = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.value_opt = torch.optim.Adam(self.value.parameters(), lr=lr)

    def checkpoint(self):
        return {"policy_config": dict(self.policy.config), "policy": self.policy.state_dict(),
                "value": self.value.state_dict()}

    def load(self, ckpt):
        self.policy = PolicyNet(**ckpt["policy_config"])
        self.policy.load_state_dict(ckpt["policy"])
        self.value.load_state_dict(ckpt["value"])

    def run_episode(self, env):
        obs, done = env.reset(), False
        observations, log_probs, rewards = [], [], []
        while not done:
            dist = torch.distributions.Categorical(logits=self.policy(obs))
            action = dist.sample()
            observations.append(obs)
            log_probs.append(dist.log_prob(action))
            obs, reward, done = env.step(int(action))
            rewards.append(reward)
        return torch.stack(observations), torch.stack(log_probs), rewards

    def update(self, observations, log_probs, rewards):
        returns, g = [], 0.0
        for r in reversed(rewards):
            g = r + GAMMA * g
            returns.insert(0, g)
        returns = torch.tensor(returns)
        values = self.value(observations)
        advantage = returns - values.detach()
        loss = -(log_probs * advantage).mean() + 0.5 * F.mse_loss(values, returns)
        self.policy_opt.zero_grad()
        self.value_opt.zero_grad()
        loss.backward()
        self.policy_opt.step()
        self.value_opt.step()
        return loss.item()


def behaviour_clone(bc_agent, steps=3):
    """Warm start: the policy imitates 'always go right'; the value net is left untouched."""
    states = torch.eye(N_CELLS)
    for _ in range(steps):
        loss = F.cross_entropy(bc_agent.policy(states), torch.ones(N_CELLS, dtype=torch.long))
        bc_agent.policy_opt.zero_grad()
        loss.backward()
        bc_agent.policy_opt.step()
    return bc_agent


def main():
    torch.manual_seed(0)
    bc_agent = behaviour_clone(Agent(N_CELLS, 2, hidden=16))
    agent = Agent(N_CELLS, 2)
    agent.load(bc_agent.checkpoint())
    env = Corridor()
    for episode in range(6):
        observations, log_probs, rewards = agent.run_episode(env)
        loss = agent.update(observations, log_probs, rewards)
        print(f"episode {episode} length {len(rewards)} return {sum(rewards):.2f} loss {loss:.4f}")
    print(f"policy checksum {sum(p.sum().item() for p in agent.policy.parameters()):.4f}")


if __name__ == "__main__":
    main()
