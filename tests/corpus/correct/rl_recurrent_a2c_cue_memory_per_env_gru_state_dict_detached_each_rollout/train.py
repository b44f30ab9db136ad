"""Recurrent advantage actor-critic on a cue-memory task, four environments in parallel.

Each environment shows a cue (+1 or -1) on the first step of an episode and zeros afterwards;
on the last step the agent must pick the action matching the cue. Episodes (6 steps) are
longer than a rollout (4 steps), so the GRU state of every environment is kept in a dict
across rollouts: detached at the rollout boundary (truncated BPTT) and reset to zeros when
its episode ends.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ENVS, EPISODE_LEN, ROLLOUT, HIDDEN, GAMMA = 4, 6, 4, 16, 0.95


class CueEnv:
    def __init__(self, generator):
        self.gen = generator
        self.reset()

    def reset(self):
        self.t = 0
        self.cue = 1.0 if torch.rand(1, generator=self.gen).item() < 0.5 else -1.0
        return self.observe()

    def observe(self):
        cue = self.cue if self.t == 0 else 0.0
        last = 1.0 if self.t == EPISODE_LEN - 1 else 0.0
        return torch.tensor([cue, last])

    def step(self, action):
        reward = 0.0
        if self.t == EPISODE_LEN - 1:
            reward = 1.0 if (action == 1) == (self.cue > 0) else -1.0
        self.t += 1
        done = self.t == EPISODE_LEN
        return (self.reset() if done else self.observe()), reward, done


class RecurrentActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(2, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.pi = nn.Linear(HIDDEN, 2)
        self.v = nn.Linear(HIDDEN, 1)

    def forward(self, obs, h):
        h = self.cell(torch.tanh(self.inp(obs)), h)
        return self.pi(h), self.v(h).squeeze(-1), h


def main():
    torch.manual_seed(0)
    envs = [CueEnv(torch.Generator().manual_seed(10 + i)) for i in range(N_ENVS)]
    obs = {i: env.reset() for i, env in enumerate(envs)}
    hidden = {i: torch.zeros(HIDDEN) for i in range(N_ENVS)}
    model = RecurrentActorCritic()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=3e-3)

    for update in range(6):
        log_probs, values, entropies, rewards, masks = [], [], [], [], []
        for _ in range(ROLLOUT):
            o = torch.stack([obs[i] for i in range(N_ENVS)])
            h = torch.stack([hidden[i] for i in range(N_ENVS)])
            logits, value, h = model(o, h)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            step_rewards, step_masks = [], []
            for i, env in enumerate(envs):
                obs[i], r, done = env.step(action[i].item())
                hidden[i] = torch.zeros(HIDDEN) if done else h[i]
                step_rewards.append(r)
                step_masks.append(0.0 if done else 1.0)
            log_probs.append(dist.log_prob(action))
            values.append(value)
            entropies.append(dist.entropy())
            rewards.append(torch.tensor(step_rewards))
            masks.append(torch.tensor(step_masks))

        with torch.no_grad():
            o = torch.stack([obs[i] for i in range(N_ENVS)])
            h = torch.stack([hidden[i] for i in range(N_ENVS)])
            ret = model(o, h)[1]
        returns = []
        for r, m in zip(reversed(rewards), reversed(masks)):
            ret = r + GAMMA * m * ret
            returns.insert(0, ret)
        returns, values = torch.stack(returns), torch.stack(values)
        advantages = returns - values
        policy_loss = -(torch.stack(log_probs) * advantages.detach()).mean()
        value_loss = advantages.pow(2).mean()
        entropy = torch.stack(entropies).mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * entropy

        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        for i in range(N_ENVS):
            hidden[i] = hidden[i].detach()
        print(f"update {update} loss {loss.item():.4f} return {returns.mean().item():+.3f}")

    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
