import torch

from agent import ReplayReinforceAgent

N = 5  # corridor cells, goal on the right


def one_hot(pos):
    v = torch.zeros(N)
    v[pos] = 1.0
    return v


def run_episode(agent, max_len=8):
    pos, log_probs, ret = 0, [], 0.0
    for _ in range(max_len):
        a, lp = agent.act(one_hot(pos))
        log_probs.append(lp)
        pos = min(N - 1, pos + 1) if a == 1 else max(0, pos - 1)
        ret -= 0.05
        if pos == N - 1:
            ret += 1.0
            break
    return log_probs, ret


def main():
    torch.manual_seed(12)
    agent = ReplayReinforceAgent(N, 2)
    for episode in range(6):
        log_probs, ret = run_episode(agent)
        agent.remember(log_probs, ret)
        loss = agent.update()
        print(f"episode {episode} return {ret:+.2f} loss {loss:+.4f}")
    print("checksum", round(sum(p.sum().item() for p in agent.policy.parameters()), 4))


if __name__ == "__main__":
    main()
