"""DQN with prioritised replay on a 5x5 grid world (reach the goal corner)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from replay import PrioritizedReplay

torch.manual_seed(0)
SIZE, GAMMA = 5, 0.9
MOVES = torch.tensor([[0, 1], [0, -1], [1, 0], [-1, 0]])


def encode(pos):
    return F.one_hot(pos[0] * SIZE + pos[1], SIZE * SIZE).float()


def env_step(pos, action):
    nxt = (pos + MOVES[action]).clamp(0, SIZE - 1)
    done = bool((nxt == SIZE - 1).all())
    return nxt, (1.0 if done else -0.02), done


def main():
    q_net = nn.Sequential(nn.Linear(SIZE * SIZE, 64), nn.ReLU(), nn.Linear(64, 4))
    target_net = nn.Sequential(nn.Linear(SIZE * SIZE, 64), nn.ReLU(), nn.Linear(64, 4))
    target_net.load_state_dict(q_net.state_dict())
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buffer = PrioritizedReplay(256)
    pos = torch.zeros(2, dtype=torch.long)
    for step in range(60):
        with torch.no_grad():
            greedy = q_net(encode(pos)).argmax().item()
        action = greedy if torch.rand(()) > 0.3 else torch.randint(4, ()).item()
        nxt, reward, done = env_step(pos, action)
        buffer.add(encode(pos), action, reward, encode(nxt), done)
        pos = torch.zeros(2, dtype=torch.long) if done else nxt
        if step < 32 or step % 8:
            continue
        idx, obs, act, rew, next_obs, dones = buffer.sample(32)
        q_sa = q_net(obs).gather(1, act[:, None]).squeeze(1)
        with torch.no_grad():
            target = rew + GAMMA * (1 - dones) * target_net(next_obs).max(1).values
        loss = F.smooth_l1_loss(q_sa, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        buffer.update_from_loss(idx, loss)
        print(f"step {step} td_loss {loss.item():.5f} max priority {buffer.priorities.max():.3f}")


if __name__ == "__main__":
    main()
