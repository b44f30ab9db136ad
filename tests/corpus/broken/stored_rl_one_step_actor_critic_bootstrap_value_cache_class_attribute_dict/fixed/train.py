"""One-step actor-critic (Sutton & Barto, ch. 13.5) on a 6-cell corridor: the agent starts
at cell 0 and gets +1 for reaching cell 5, -0.05 per step otherwise. To save critic
forwards on this tiny state space, the agent bootstraps from a table of the value estimates
it already computed for each cell (refreshed every time a cell is visited)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CELLS, GAMMA, EPISODES, MAX_STEPS = 6, 0.95, 3, 12


class Corridor:
    def reset(self):
        self.pos = 0
        return self.pos

    def step(self, action):
        self.pos = max(0, min(N_CELLS - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == N_CELLS - 1
        return self.pos, (1.0 if done else -0.05), done


def features(cell):
    return F.one_hot(torch.tensor(cell), N_CELLS).float()


class ActorCritic:
    value_cache = {}  # cell -> latest V(cell) estimate, used as bootstrap target

    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(N_CELLS, 16), nn.Tanh(), nn.Linear(16, 2))
        self.critic = nn.Sequential(nn.Linear(N_CELLS, 16), nn.Tanh(), nn.Linear(16, 1))
        params = list(self.actor.parameters()) + list(self.critic.parameters())
        self.optimizer = torch.optim.Adam(params, lr=1e-2)

    def act(self, cell):
        dist = torch.distributions.Categorical(logits=self.actor(features(cell)))
        action = dist.sample()
        return action.item(), dist.log_prob(action)

    def bootstrap(self, cell):
        if cell in self.value_cache:
            return self.value_cache[cell]
        with torch.no_grad():
            return self.critic(features(cell)).squeeze()

    def learn(self, cell, log_prob, reward, next_cell, done):
        value = self.critic(features(cell)).squeeze()
        target = reward + (0.0 if done else GAMMA * self.bootstrap(next_cell))
        td_error = target - value
        loss = td_error.pow(2) - log_prob * td_error.detach()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.value_cache[cell] = value.detach()
        return td_error.item()


def main():
    torch.manual_seed(0)
    env, agent = Corridor(), ActorCritic()
    for episode in range(EPISODES):
        cell, ret = env.reset(), 0.0
        for t in range(MAX_STEPS):
            action, log_prob = agent.act(cell)
            next_cell, reward, done = env.step(action)
            delta = agent.learn(cell, log_prob, reward, next_cell, done)
            ret += reward
            cell = next_cell
            if done:
                break
        print(f"episode {episode} steps {t + 1} return {ret:.2f} last td {delta:.4f}")


if __name__ == "__main__":
    main()
