"""Online one-step actor-critic with a GRU agent on a T-maze memory task.

The cue (left/right) is only visible on the first step of an episode; at the junction the
agent must turn the way the cue said. The agent keeps its recurrent state in `agent_state`
between environment steps and updates its weights after every step (TD(0) critic).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

OBS, HID, N_ACTIONS, CORRIDOR, GAMMA = 4, 16, 3, 3, 0.95


class TMaze:
    """obs = [cue_left, cue_right, in_corridor, at_junction]; actions: 0 fwd, 1 left, 2 right."""

    def __init__(self, generator):
        self.gen = generator

    def reset(self):
        self.cue = int(torch.randint(0, 2, (1,), generator=self.gen))
        self.pos = 0
        return self._obs()

    def _obs(self):
        obs = torch.zeros(1, OBS)
        if self.pos == 0:
            obs[0, self.cue] = 1.0
        obs[0, 3 if self.pos == CORRIDOR else 2] = 1.0
        return obs

    def step(self, action):
        if self.pos < CORRIDOR:
            self.pos += 1
            return self._obs(), (0.0 if action == 0 else -0.1), False
        reward = 1.0 if action == 1 + self.cue else -1.0
        return self._obs(), reward, True


class RecurrentActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(OBS, HID), nn.Tanh())
        self.gru = nn.GRUCell(HID, HID)
        self.policy = nn.Linear(HID, N_ACTIONS)
        self.value = nn.Linear(HID, 1)

    def forward(self, obs, hx):
        hx = self.gru(self.encoder(obs), hx)
        return self.policy(hx), self.value(hx).squeeze(-1), hx


def train(total_steps=8):
    torch.manual_seed(3)
    env = TMaze(torch.Generator().manual_seed(11))
    net = RecurrentActorCritic()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=7e-4)
    agent_state = {"hx": torch.zeros(1, HID), "episode_return": 0.0, "episodes": 0}
    obs = env.reset()
    for step in range(total_steps):
        logits, value, hx = net(obs, agent_state["hx"])
        dist = Categorical(logits=logits)
        action = dist.sample()
        next_obs, reward, done = env.step(action.item())
        with torch.no_grad():
            _, next_value, _ = net(next_obs, hx)
        target = reward + GAMMA * next_value * (0.0 if done else 1.0)
        advantage = target - value
        actor_loss = -(dist.log_prob(action) * advantage.detach()).mean()
        critic_loss = F.smooth_l1_loss(value, target)
        loss = actor_loss + 0.5 * critic_loss - 0.01 * dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        agent_state["episode_return"] += reward
        agent_state["hx"] = torch.zeros(1, HID) if done else hx
        if done:
            agent_state["episodes"] += 1
            print(f"step {step} episode {agent_state['episodes']} return "
                  f"{agent_state['episode_return']:+.2f} loss {loss.item():.4f}")
            agent_state["episode_return"] = 0.0
            next_obs = env.reset()
        obs = next_obs
    return net


if __name__ == "__main__":
    train()
