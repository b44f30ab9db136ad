"""REINFORCE with a learned state-value baseline on a 6-cell corridor, using a tabular
softmax policy. To keep updates conservative, the loss adds a KL penalty towards an
anchor policy: a slow moving average of the policy table kept in TrainState.
retain_graph=True was added after the third episode raised 'Trying to backward through the
graph a second time'."""
from dataclasses import dataclass

import torch
import torch.nn as nn

N_CELLS, GOAL, MAX_STEPS, EPISODES = 6, 5, 12, 10
ANCHOR_MOMENTUM, KL_WEIGHT, GAMMA = 0.9, 0.5, 0.95


class TabularAgent(nn.Module):
    def __init__(self):
        super().__init__()
        self.logits = nn.Parameter(torch.zeros(N_CELLS, 2))
        self.values = nn.Parameter(torch.zeros(N_CELLS))

    def policy_table(self):
        return torch.softmax(self.logits, dim=-1)


@dataclass
class TrainState:
    anchor: torch.Tensor
    episode: int = 0


def run_episode(agent, gen):
    cell, cells, actions, rewards = 0, [], [], []
    with torch.no_grad():
        table = agent.policy_table()
    for _ in range(MAX_STEPS):
        action = int(torch.multinomial(table[cell], 1, generator=gen))
        cells.append(cell)
        actions.append(action)
        cell = min(max(cell + (1 if action == 1 else -1), 0), N_CELLS - 1)
        rewards.append(1.0 if cell == GOAL else -0.05)
        if cell == GOAL:
            break
    returns, running = [], 0.0
    for r in reversed(rewards):
        running = r + GAMMA * running
        returns.insert(0, running)
    return torch.tensor(cells), torch.tensor(actions), torch.tensor(returns)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    agent = TabularAgent()
    optimizer = torch.optim.SGD(agent.parameters(), lr=0.5)
    state = TrainState(anchor=agent.policy_table().detach())
    for episode in range(EPISODES):
        cells, actions, returns = run_episode(agent, gen)
        probs = agent.policy_table()
        log_probs = probs[cells, actions].log()
        advantage = returns - agent.values[cells]
        policy_loss = -(log_probs * advantage.detach()).mean()
        value_loss = advantage.pow(2).mean()
        kl = (state.anchor * (state.anchor.log() - probs.log())).sum(-1).mean()
        loss = policy_loss + 0.5 * value_loss + KL_WEIGHT * kl
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        state.anchor = ANCHOR_MOMENTUM * state.anchor + (1 - ANCHOR_MOMENTUM) * agent.policy_table()
        state.episode += 1
        print(f"episode {episode} length {len(cells)} return {returns[0].item():.3f} kl {kl.item():.4f}")
    return state


if __name__ == "__main__":
    main()
