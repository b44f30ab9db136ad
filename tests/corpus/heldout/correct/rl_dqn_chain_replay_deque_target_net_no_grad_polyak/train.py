"""DQN on a 6-state chain MDP with a replay deque, a target network evaluated under
torch.no_grad(), Double-DQN action selection and Polyak averaging of the target."""
import copy
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STATES, GAMMA, TAU = 6, 0.9, 0.1


def env_step(state, action):
    nxt = min(N_STATES - 1, state + 1) if action == 1 else max(0, state - 1)
    reward = 1.0 if nxt == N_STATES - 1 else (0.1 if nxt == 0 else 0.0)
    return nxt, reward, nxt == N_STATES - 1


def encode(states):
    return F.one_hot(torch.as_tensor(states), N_STATES).float()


def main():
    random.seed(0)
    torch.manual_seed(0)
    online = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 2))
    target = copy.deepcopy(online)
    target.requires_grad_(False)
    optimizer = torch.optim.Adam(online.parameters(), lr=5e-3)
    replay = deque(maxlen=200)

    state = 0
    for t in range(64):
        if random.random() < 0.3:
            action = random.randrange(2)
        else:
            with torch.no_grad():
                action = int(online(encode(state)).argmax())
        nxt, reward, done = env_step(state, action)
        replay.append((state, action, reward, nxt, float(done)))
        state = 0 if done else nxt

    for update in range(6):
        batch = random.sample(list(replay), 32)
        s, a, r, s2, d = zip(*batch)
        s, s2 = encode(list(s)), encode(list(s2))
        a, r, d = torch.tensor(a), torch.tensor(r), torch.tensor(d)
        q = online(s).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            best = online(s2).argmax(1, keepdim=True)
            q_next = target(s2).gather(1, best).squeeze(1)
            y = r + GAMMA * (1 - d) * q_next
        loss = F.smooth_l1_loss(q, y)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(online.parameters(), 10.0)
        optimizer.step()
        with torch.no_grad():
            for p_t, p in zip(target.parameters(), online.parameters()):
                p_t.lerp_(p, TAU)
        print(f"update {update} td loss {loss.item():.5f} mean q {q.mean().item():.4f}")
    print(f"online checksum {sum(p.sum().item() for p in online.parameters()):.4f}")


if __name__ == "__main__":
    main()
