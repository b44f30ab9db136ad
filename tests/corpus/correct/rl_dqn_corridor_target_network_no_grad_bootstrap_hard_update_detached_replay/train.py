"""DQN on a 1-D corridor: online net trained, target net only read under no_grad."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CELLS, N_ACTIONS, GAMMA = 7, 2, 0.9


def one_hot(s):
    return F.one_hot(torch.tensor(s), N_CELLS).float()


def env_step(s, a):
    s2 = max(0, min(N_CELLS - 1, s + (1 if a == 1 else -1)))
    done = s2 == N_CELLS - 1
    return s2, (1.0 if done else -0.05), done


def make_q():
    return nn.Sequential(nn.Linear(N_CELLS, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))


def main():
    torch.manual_seed(0)
    random.seed(0)
    online, target = make_q(), make_q()
    target.load_state_dict(online.state_dict())
    target.requires_grad_(False)
    optimizer = torch.optim.Adam(online.parameters(), lr=5e-3)
    replay = deque(maxlen=500)

    s, eps = 0, 0.5
    for it in range(8):
        for _ in range(24):
            with torch.no_grad():
                greedy = int(online(one_hot(s)).argmax())
            a = random.randrange(N_ACTIONS) if random.random() < eps else greedy
            s2, r, done = env_step(s, a)
            replay.append((one_hot(s), a, r, one_hot(s2), float(done)))
            s = 0 if done else s2

        batch = random.sample(list(replay), min(32, len(replay)))
        obs = torch.stack([b[0] for b in batch])
        act = torch.tensor([b[1] for b in batch])
        rew = torch.tensor([b[2] for b in batch])
        nxt = torch.stack([b[3] for b in batch])
        dn = torch.tensor([b[4] for b in batch])

        q = online(obs).gather(1, act[:, None]).squeeze(1)
        with torch.no_grad():
            bootstrap = rew + GAMMA * (1 - dn) * target(nxt).max(1).values
        loss = F.smooth_l1_loss(q, bootstrap)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 3 == 2:
            target.load_state_dict(online.state_dict())
        print(f"iter {it} td loss {loss.item():.5f}")

    checksum = sum(p.detach().abs().sum().item() for p in online.parameters())
    print(f"online checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
