"""DQN on a 6-cell corridor: start in the middle, +1 for reaching the right end, a small
penalty per move. Transitions go into a replay deque; one TD update per env step."""
import random
from collections import deque

import torch

from agent import DQNAgent

N_CELLS, GOAL = 6, 5


def env_step(state, action):
    nxt = max(0, min(N_CELLS - 1, state + (1 if action == 1 else -1)))
    done = nxt == GOAL
    return nxt, (1.0 if done else -0.05), done


def sample(replay, batch_size, rng):
    s, a, r, s2, d = zip(*rng.sample(list(replay), batch_size))
    return (torch.tensor(s), torch.tensor(a), torch.tensor(r),
            torch.tensor(s2), torch.tensor(d, dtype=torch.float32))


def main():
    torch.manual_seed(0)
    rng = random.Random(0)
    agent = DQNAgent(N_CELLS, n_actions=2)
    replay = deque(maxlen=200)
    state, updates, episode_return = 2, 0, 0.0

    for t in range(30):
        action = agent.act(state, epsilon=max(0.1, 1.0 - t / 20), rng=rng)
        nxt, reward, done = env_step(state, action)
        replay.append((state, action, reward, nxt, float(done)))
        episode_return += reward
        state = 2 if done else nxt
        if done:
            print(f"t {t} episode return {episode_return:.2f}")
            episode_return = 0.0
        if len(replay) >= 16 and t % 2 == 0:
            loss = agent.learn(sample(replay, 8, rng))
            agent.optimizer.zero_grad()
            loss.backward()
            agent.optimizer.step()
            updates += 1
            print(f"t {t} update {updates} td_loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
