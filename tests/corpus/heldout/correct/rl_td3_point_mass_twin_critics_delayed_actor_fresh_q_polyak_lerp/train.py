"""TD3 on a 1-D point mass (push the mass to the origin). Twin critics, target policy
smoothing, delayed actor updates and Polyak-averaged target networks. Transitions are stored
in a replay deque without graphs.
"""
import copy
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

OBS_DIM, ACT_DIM, GAMMA, TAU, POLICY_DELAY = 2, 1, 0.95, 0.05, 2
BATCH, WARMUP, UPDATES, NOISE, NOISE_CLIP = 32, 64, 8, 0.2, 0.5


def mlp(n_in, n_out, out_act=None):
    layers = [nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, n_out)]
    return nn.Sequential(*layers, *([out_act] if out_act else []))


def env_step(state, action):
    pos, vel = state[0].item(), state[1].item()
    vel = 0.9 * vel + 0.1 * action.item()
    pos = max(-2.0, min(2.0, pos + vel))
    nxt = torch.tensor([pos, vel])
    return nxt, -(pos ** 2) - 0.01 * action.item() ** 2


actor = mlp(OBS_DIM, ACT_DIM, nn.Tanh())
critics = nn.ModuleList([mlp(OBS_DIM + ACT_DIM, 1), mlp(OBS_DIM + ACT_DIM, 1)])
actor_target, critics_target = copy.deepcopy(actor), copy.deepcopy(critics)
for p in [*actor_target.parameters(), *critics_target.parameters()]:
    p.requires_grad_(False)
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critics.parameters(), lr=1e-3)

replay = deque(maxlen=1000)
state = torch.tensor([1.5, 0.0])
for t in range(WARMUP + UPDATES):
    with torch.no_grad():
        action = (actor(state) + 0.3 * torch.randn(ACT_DIM)).clamp(-1, 1)
    nxt, reward = env_step(state, action)
    replay.append((state, action, reward, nxt))
    state = nxt if t % 20 else torch.tensor([random.uniform(-1.5, 1.5), 0.0])
    if len(replay) < WARMUP:
        continue

    s, a, r, s2 = zip(*random.sample(replay, BATCH))
    s, a, s2 = torch.stack(s), torch.stack(a), torch.stack(s2)
    r = torch.tensor(r).unsqueeze(1)
    with torch.no_grad():
        noise = (torch.randn_like(a) * NOISE).clamp(-NOISE_CLIP, NOISE_CLIP)
        a2 = (actor_target(s2) + noise).clamp(-1, 1)
        sa2 = torch.cat([s2, a2], dim=1)
        target = r + GAMMA * torch.min(critics_target[0](sa2), critics_target[1](sa2))

    sa = torch.cat([s, a], dim=1)
    critic_loss = sum(F.mse_loss(q(sa), target) for q in critics)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()

    update = t - WARMUP + 1
    if update % POLICY_DELAY == 0:
        # fresh forward through the updated critic: the graph is built after critic_opt.step()
        actor_loss = -critics[0](torch.cat([s, actor(s)], dim=1)).mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        with torch.no_grad():
            for net, tgt in ((actor, actor_target), (critics, critics_target)):
                for p, p_t in zip(net.parameters(), tgt.parameters()):
                    p_t.lerp_(p, TAU)
        print(f"update {update} critic {critic_loss.item():.4f} actor {actor_loss.item():.4f}")
    else:
        print(f"update {update} critic {critic_loss.item():.4f}")

with torch.no_grad():
    checksum = sum(p.sum() for p in [*actor.parameters(), *critics.parameters()])
print(f"param checksum {checksum.item():.4f}")
