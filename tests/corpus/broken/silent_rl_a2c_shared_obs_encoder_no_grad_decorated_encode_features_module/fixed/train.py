import torch
import torch.nn as nn
import torch.nn.functional as F

import features

OBS, HID, ACTIONS = 6, 16, 3


class CueEnv:
    """One-step task: the rewarded action is the largest of the first 3 cues."""

    def __init__(self, batch):
        self.batch = batch

    def reset(self):
        self.obs = torch.randn(self.batch, OBS)
        return self.obs

    def step(self, action):
        best = self.obs[:, :ACTIONS].argmax(dim=1)
        return (action == best).float()


def rollout(env, encoder, actor):
    obs = env.reset()
    feats = features.encode(encoder, obs)
    action = torch.distributions.Categorical(logits=actor(feats).detach()).sample()
    return obs, action, env.step(action)


def update(encoder, actor, critic, optimizer, obs, action, reward):
    feats = encoder(obs)
    dist = torch.distributions.Categorical(logits=actor(feats))
    value = critic(feats).squeeze(-1)
    advantage = reward - value.detach()
    policy_loss = -(dist.log_prob(action) * advantage).mean()
    value_loss = F.mse_loss(value, reward)
    loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item(), reward.mean().item()


def main():
    torch.manual_seed(7)
    encoder = nn.Sequential(nn.Linear(OBS, HID), nn.Tanh(), nn.Linear(HID, HID), nn.Tanh())
    actor = nn.Linear(HID, ACTIONS)
    critic = nn.Linear(HID, 1)
    params = [*encoder.parameters(), *actor.parameters(), *critic.parameters()]
    optimizer = torch.optim.Adam(params, lr=3e-3)
    env = CueEnv(batch=32)
    for it in range(8):
        obs, action, reward = rollout(env, encoder, actor)
        loss, ret = update(encoder, actor, critic, optimizer, obs, action, reward)
        print(f"iter {it} loss {loss:.4f} mean reward {ret:.3f}")


if __name__ == "__main__":
    main()
