"""Double DQN with a small prioritised replay buffer on a 5-armed contextual task.
TD-error priorities are written into a preallocated tensor, the target network follows
the online one with Polyak averaging, and a history of losses is kept for plotting."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CTX, N_ARMS, CAPACITY, BATCH, UPDATES, TAU, GAMMA = 4, 5, 64, 16, 8, 0.1, 0.5


class PrioritizedReplay:
    def __init__(self, capacity):
        self.states = torch.zeros(capacity, N_CTX)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.rewards = torch.zeros(capacity)
        self.next_states = torch.zeros(capacity, N_CTX)
        self.priorities = torch.ones(capacity)
        self.size = 0

    def add(self, s, a, r, s2):
        i = self.size % len(self.priorities)
        self.states[i], self.actions[i], self.rewards[i], self.next_states[i] = s, a, r, s2
        self.priorities[i] = self.priorities[: max(self.size, 1)].max()
        self.size += 1

    def sample(self, n):
        probs = self.priorities[: self.size] ** 0.6
        idx = torch.multinomial(probs / probs.sum(), n, replacement=True)
        weights = (self.size * probs[idx] / probs.sum()) ** -0.4
        return idx, weights / weights.max()

    def update_priorities(self, idx, td_error):
        self.priorities[idx] = td_error.detach().abs() + 1e-3


def reward_of(ctx, arm):
    best = ctx.argmax(dim=-1) % N_ARMS
    return (arm == best).float() + 0.1 * torch.randn(arm.shape)


q_net = nn.Sequential(nn.Linear(N_CTX, 32), nn.ReLU(), nn.Linear(32, N_ARMS))
target_net = copy.deepcopy(q_net).requires_grad_(False)
optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-2)
replay = PrioritizedReplay(CAPACITY)

with torch.no_grad():
    for _ in range(48):
        ctx = torch.randn(N_CTX)
        arm = torch.randint(0, N_ARMS, ())
        replay.add(ctx, arm, reward_of(ctx, arm), torch.randn(N_CTX))

loss_history = []
for update in range(UPDATES):
    idx, weights = replay.sample(BATCH)
    s, a = replay.states[idx], replay.actions[idx]
    q = q_net(s).gather(1, a[:, None]).squeeze(1)
    with torch.no_grad():
        next_a = q_net(replay.next_states[idx]).argmax(1, keepdim=True)
        next_q = target_net(replay.next_states[idx]).gather(1, next_a).squeeze(1)
        target = replay.rewards[idx] + GAMMA * next_q
    td_error = q - target
    loss = (weights * F.smooth_l1_loss(q, target, reduction="none")).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    replay.update_priorities(idx, td_error)
    with torch.no_grad():
        for t_p, p in zip(target_net.parameters(), q_net.parameters()):
            t_p.lerp_(p, TAU)
    loss_history.append(loss.detach())
    print(f"update {update} loss {loss.item():.4f} max priority {replay.priorities.max():.3f}")

print(f"mean loss {torch.stack(loss_history).mean().item():.4f}")
print(f"checksum {sum(p.sum().item() for p in q_net.parameters()):.4f}")
