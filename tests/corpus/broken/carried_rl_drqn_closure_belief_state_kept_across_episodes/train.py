"""Recurrent Q-learning (DRQN-style) on a tiny cue-memory corridor: a cue shown at the
first step says whether the goal is left or right at the end. The recurrent Q-network is
built by make_recurrent_q(), which keeps the GRU belief in a closure; the agent resets
the belief only when a new corridor layout is drawn, every few episodes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

OBS_DIM, HID, N_ACTIONS, CORRIDOR, EPISODES, LAYOUT_EVERY = 4, 16, 2, 4, 6, 3


def corridor_episode(cue):
    obs = torch.zeros(CORRIDOR, OBS_DIM)
    obs[0, cue] = 1.0
    obs[1:, 2] = 1.0
    obs[-1, 3] = 1.0
    return obs


def make_recurrent_q(encoder, cell, q_head):
    h = torch.zeros(1, HID)

    def act(obs_t):
        nonlocal h
        h = cell(F.relu(encoder(obs_t.unsqueeze(0))), h)
        return q_head(h).squeeze(0)

    def reset():
        nonlocal h
        h = torch.zeros(1, HID)

    return act, reset


def main():
    torch.manual_seed(0)
    encoder, cell, q_head = nn.Linear(OBS_DIM, HID), nn.GRUCell(HID, HID), nn.Linear(HID, N_ACTIONS)
    params = [*encoder.parameters(), *cell.parameters(), *q_head.parameters()]
    optimizer = torch.optim.Adam(params, lr=1e-2)
    q_values, reset_belief = make_recurrent_q(encoder, cell, q_head)
    gamma, epsilon = 0.9, 0.2
    returns = []
    for episode in range(EPISODES):
        if episode % LAYOUT_EVERY == 0:
            reset_belief()
        cue = episode % 2
        obs = corridor_episode(cue)
        qs, actions, rewards = [], [], []
        for t in range(CORRIDOR):
            q = q_values(obs[t])
            a = int(torch.randint(N_ACTIONS, ())) if torch.rand(()) < epsilon else int(q.argmax())
            r = (1.0 if a == cue else -1.0) if t == CORRIDOR - 1 else 0.0
            qs.append(q[a])
            actions.append(a)
            rewards.append(r)
        targets, g = [], 0.0
        for r in reversed(rewards):
            g = r + gamma * g
            targets.insert(0, g)
        loss = F.smooth_l1_loss(torch.stack(qs), torch.tensor(targets))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        returns.append(rewards[-1])
        print(f"episode {episode} cue {cue} return {rewards[-1]:+.0f} td_loss {loss.item():.4f}")
    return returns


if __name__ == "__main__":
    main()
