"""Recurrent DQN with R2D2-style stored states and burn-in. The actor collects fixed-length
sequences under no_grad and stores, with each sequence, the recurrent state it had at the
start. The learner replays a sequence: it warms the GRU up over the first BURN_IN steps
under no_grad starting from the stored state, then unrolls the remaining steps with grad
from that warmed-up state. Target network updated by Polyak averaging."""
import copy
import random
from collections import deque
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

OBS, ACTIONS, HID, SEQ, BURN_IN, GAMMA = 3, 2, 20, 10, 4, 0.9


@dataclass
class Sequence:
    obs: torch.Tensor       # (SEQ + 1, OBS)
    actions: torch.Tensor   # (SEQ,)
    rewards: torch.Tensor   # (SEQ,)
    init_state: torch.Tensor  # (1, HID) recurrent state when the sequence began


class FlickeringSignal:
    """Reward for matching a sign that is only visible every third step."""

    def __init__(self, rng):
        self.rng, self.t, self.sign = rng, 0, 1

    def observe(self):
        visible = self.t % 3 == 0
        return torch.tensor([self.sign * visible, float(visible), 1.0], dtype=torch.float32)

    def step(self, action):
        reward = 1.0 if (action == 1) == (self.sign > 0) else -0.5
        self.t += 1
        if self.rng.random() < 0.15:
            self.sign = -self.sign
        return reward


class RecurrentQ(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(OBS, HID)
        self.gru = nn.GRU(HID, HID, batch_first=True)
        self.q = nn.Linear(HID, ACTIONS)

    def forward(self, obs, state):
        out, state = self.gru(torch.relu(self.embed(obs)), state)
        return self.q(out), state


@torch.no_grad()
def collect(net, env, state, rng, epsilon=0.3):
    obs, actions, rewards = [env.observe()], [], []
    start_state = state[0].clone()
    for _ in range(SEQ):
        q, state = net(obs[-1].view(1, 1, OBS), state)
        action = rng.randrange(ACTIONS) if rng.random() < epsilon else q.argmax().item()
        rewards.append(env.step(action))
        actions.append(action)
        obs.append(env.observe())
    seq = Sequence(torch.stack(obs), torch.tensor(actions), torch.tensor(rewards), start_state)
    return seq, state


def learner_loss(online, target, seq):
    obs = seq.obs.unsqueeze(0)
    with torch.no_grad():
        _, warm = online(obs[:, :BURN_IN], seq.init_state.unsqueeze(0))
        target_q, _ = target(obs, seq.init_state.unsqueeze(0))
    q, _ = online(obs[:, BURN_IN:-1], warm)
    q_taken = q[0].gather(1, seq.actions[BURN_IN:].unsqueeze(1)).squeeze(1)
    bootstrap = target_q[0, BURN_IN + 1:].max(dim=1).values
    return F.smooth_l1_loss(q_taken, seq.rewards[BURN_IN:] + GAMMA * bootstrap)


rng = random.Random(0)
torch.manual_seed(0)
online = RecurrentQ()
target = copy.deepcopy(online).requires_grad_(False)
optimizer = torch.optim.Adam(online.parameters(), lr=3e-3)
replay = deque(maxlen=16)
env, actor_state = FlickeringSignal(rng), torch.zeros(1, 1, HID)
for it in range(8):
    seq, actor_state = collect(online, env, actor_state, rng)
    replay.append(seq)
    batch = rng.sample(list(replay), min(3, len(replay)))
    loss = sum(learner_loss(online, target, s) for s in batch) / len(batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for p_t, p in zip(target.parameters(), online.parameters()):
            p_t.lerp_(p, 0.1)
    print(f"iter {it} replay {len(replay)} loss {loss.item():.5f} "
          f"seq return {seq.rewards.sum().item():+.2f}")
print(f"param checksum {sum(p.sum().item() for p in online.parameters()):.6f}")
