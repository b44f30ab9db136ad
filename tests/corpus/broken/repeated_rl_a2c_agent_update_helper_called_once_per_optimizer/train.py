"""A2C on a toy corridor: the agent starts in the middle of N cells and is rewarded for
reaching the right end. One update per episode."""
import torch

from agent import A2CAgent

torch.manual_seed(0)
N_CELLS, MAX_STEPS = 7, 12


class Corridor:
    def reset(self):
        self.pos = N_CELLS // 2
        return self.observe()

    def observe(self):
        return torch.nn.functional.one_hot(torch.tensor(self.pos), N_CELLS).float()

    def step(self, action):
        self.pos = max(0, min(N_CELLS - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == N_CELLS - 1
        return self.observe(), (1.0 if done else -0.05), done


env = Corridor()
agent = A2CAgent(obs_dim=N_CELLS, n_actions=2)

for episode in range(6):
    obs = env.reset()
    observations, log_probs, entropies, rewards = [], [], [], []
    for t in range(MAX_STEPS):
        action, log_prob, entropy = agent.act(obs)
        observations.append(obs)
        log_probs.append(log_prob)
        entropies.append(entropy)
        obs, reward, done = env.step(action.item())
        rewards.append(reward)
        if done:
            break
    actor_loss, critic_loss = agent.learn(observations, log_probs, entropies, rewards)
    print(f"episode {episode} return {sum(rewards):.2f} actor {actor_loss:.4f} critic {critic_loss:.4f}")
