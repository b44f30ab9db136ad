"""Recurrent REINFORCE on a batch of T-mazes: the cue is only visible at the first step, so
the GRU policy has to remember it until the junction. The recurrent state lives in a closure
made by make_actor(); it is reset at the start of every episode and the episode is
backpropagated once, through all its steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ENVS, CORRIDOR, EPISODES = 16, 5, 8
OBS, ACTIONS, HIDDEN = 4, 3, 24  # obs: cue-left, cue-right, corridor, junction


class TMazeBatch:
    def __init__(self, n, length, gen):
        self.n, self.length, self.gen = n, length, gen

    def reset(self):
        self.t = 0
        self.cue = torch.randint(0, 2, (self.n,), generator=self.gen)
        return self._obs()

    def _obs(self):
        obs = torch.zeros(self.n, OBS)
        if self.t == 0:
            obs[torch.arange(self.n), self.cue] = 1.0
        elif self.t < self.length:
            obs[:, 2] = 1.0
        else:
            obs[:, 3] = 1.0
        return obs

    def step(self, action):
        if self.t < self.length:
            reward = torch.where(action == 2, 0.0, -0.1)
        else:
            reward = torch.where(action == self.cue, 1.0, -1.0)
        self.t += 1
        return self._obs(), reward, self.t > self.length


class RecurrentPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.encode = nn.Linear(OBS, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.logits = nn.Linear(HIDDEN, ACTIONS)


def make_actor(policy, gen):
    h = None

    def reset(batch):
        nonlocal h
        h = torch.zeros(batch, HIDDEN)

    def act(obs):
        nonlocal h
        h = policy.cell(torch.tanh(policy.encode(obs)), h)
        dist = torch.distributions.Categorical(logits=policy.logits(h))
        probs = dist.probs.detach()
        action = torch.multinomial(probs, 1, generator=gen).squeeze(1)
        return action, dist.log_prob(action), dist.entropy()

    return act, reset


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    env = TMazeBatch(N_ENVS, CORRIDOR, gen)
    policy = RecurrentPolicy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    act, reset = make_actor(policy, gen)
    baseline = 0.0
    for episode in range(EPISODES):
        obs, done = env.reset(), False
        reset(N_ENVS)
        log_probs, entropies, rewards = [], [], []
        while not done:
            action, log_prob, entropy = act(obs)
            obs, reward, done = env.step(action)
            log_probs.append(log_prob)
            entropies.append(entropy)
            rewards.append(reward)
        returns = torch.stack(rewards).flip(0).cumsum(0).flip(0)
        advantage = returns - baseline
        loss = -(torch.stack(log_probs) * advantage).mean() - 0.01 * torch.stack(entropies).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        episode_return = returns[0].mean().item()
        baseline = 0.8 * baseline + 0.2 * episode_return
        print(f"episode {episode} return {episode_return:+.3f} baseline {baseline:+.3f} "
              f"loss {loss.item():.4f}")
    checksum = sum(p.detach().sum().item() for p in policy.parameters())
    print(f"param checksum {checksum:.6f}")
    return baseline


if __name__ == "__main__":
    main()
