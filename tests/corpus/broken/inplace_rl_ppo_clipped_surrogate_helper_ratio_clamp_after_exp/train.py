"""PPO on a 1-D corridor: the agent starts in the middle of 9 cells and is paid +1 for
reaching the right end, -1 for the left end, with a small cost per step. Rollouts are
collected with the current policy, then the actor-critic is updated for a few epochs of
minibatches with the clipped surrogate objective."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ppo_utils import clipped_surrogate, discounted_advantages

N_CELLS, HORIZON, EPOCHS, MINIBATCH, ITERATIONS = 9, 32, 2, 16, 2


class Corridor:
    def __init__(self):
        self.pos = N_CELLS // 2

    def reset(self):
        self.pos = N_CELLS // 2
        return self.pos

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        if self.pos == N_CELLS - 1:
            return self.reset(), 1.0, 1.0
        if self.pos == 0:
            return self.reset(), -1.0, 1.0
        return self.pos, -0.01, 0.0


def encode(positions):
    return F.one_hot(torch.as_tensor(positions), N_CELLS).float()


class ActorCritic(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_CELLS, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, 2)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def collect(env, net, state):
    states, actions, logps, rewards, dones = [], [], [], [], []
    with torch.no_grad():
        for _ in range(HORIZON):
            dist, _ = net(encode([state]))
            action = dist.sample()
            next_state, reward, done = env.step(int(action))
            states.append(state)
            actions.append(int(action))
            logps.append(dist.log_prob(action).item())
            rewards.append(reward)
            dones.append(done)
            state = next_state
        values = net(encode(states + [state]))[1]
    batch = {"obs": encode(states), "actions": torch.tensor(actions), "logp": torch.tensor(logps),
             "rewards": torch.tensor(rewards), "dones": torch.tensor(dones), "values": values}
    return batch, state


def update(net, optimizer, batch):
    adv, returns = discounted_advantages(batch["rewards"], batch["values"], batch["dones"])
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(EPOCHS):
        for idx in torch.randperm(HORIZON).split(MINIBATCH):
            dist, value = net(batch["obs"][idx])
            new_logp = dist.log_prob(batch["actions"][idx])
            policy_loss = clipped_surrogate(new_logp, batch["logp"][idx], adv[idx])
            loss = policy_loss + 0.5 * F.mse_loss(value, returns[idx]) - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    env, net = Corridor(), ActorCritic()
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    state = env.reset()
    for it in range(ITERATIONS):
        batch, state = collect(env, net, state)
        print(f"iteration {it} return {batch['rewards'].sum().item():.2f} "
              f"loss {update(net, optimizer, batch):.4f}")
    with torch.no_grad():
        probs = net(encode(list(range(N_CELLS))))[0].probs[:, 1]
    print("p(right)", [round(p, 3) for p in probs.tolist()])


if __name__ == "__main__":
    main()
