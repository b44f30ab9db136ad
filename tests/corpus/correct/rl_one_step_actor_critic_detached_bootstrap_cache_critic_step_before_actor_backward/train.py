"""One-step actor-critic on a 6-cell corridor with separate actor and critic optimizers.
The critic bootstraps TD targets from a table of value estimates it keeps per cell (stored
without their graph); each transition first updates the critic, then the actor with the TD
error measured before the critic moved (Sutton & Barto's ordering)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CELLS, GAMMA, EPISODES, MAX_STEPS = 6, 0.9, 4, 10


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
    value_cache = {}  # cell -> latest V(cell), stored as a constant bootstrap target

    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(N_CELLS, 16), nn.Tanh(), nn.Linear(16, 2))
        self.critic = nn.Sequential(nn.Linear(N_CELLS, 16), nn.Tanh(), nn.Linear(16, 1))
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-2)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=2e-2)

    def act(self, cell):
        dist = torch.distributions.Categorical(logits=self.actor(features(cell)))
        action = dist.sample()
        return action.item(), dist.log_prob(action), dist.entropy()

    def bootstrap(self, cell):
        if cell in self.value_cache:
            return self.value_cache[cell]
        with torch.no_grad():
            return self.critic(features(cell)).squeeze()

    def learn(self, cell, log_prob, entropy, reward, next_cell, done):
        value = self.critic(features(cell)).squeeze()
        target = reward + (0.0 if done else GAMMA * self.bootstrap(next_cell))
        td_error = target - value
        advantage = td_error.detach()

        critic_loss = td_error.pow(2)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        actor_loss = -(log_prob * advantage) - 0.01 * entropy
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        self.value_cache[cell] = value.detach()
        return critic_loss.item(), actor_loss.item()


def main():
    torch.manual_seed(0)
    env, agent = Corridor(), ActorCritic()
    return_ema = 0.0
    for episode in range(EPISODES):
        cell, ret = env.reset(), 0.0
        for t in range(MAX_STEPS):
            action, log_prob, entropy = agent.act(cell)
            next_cell, reward, done = env.step(action)
            c_loss, a_loss = agent.learn(cell, log_prob, entropy, reward, next_cell, done)
            ret += reward
            cell = next_cell
            if done:
                break
        return_ema = 0.8 * return_ema + 0.2 * ret
        print(f"episode {episode} steps {t + 1} return {ret:.2f} ema {return_ema:.3f} "
              f"critic {c_loss:.4f} actor {a_loss:.4f} cached {len(agent.value_cache)}")
    checksum = sum(p.sum().item() for net in (agent.actor, agent.critic) for p in net.parameters())
    print(f"parameter checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
