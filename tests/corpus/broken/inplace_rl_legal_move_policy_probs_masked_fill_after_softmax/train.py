"""REINFORCE on a toy board game: the agent picks an empty cell on a 3x3 board and is
rewarded when it picks the cell that completes a line. Occupied cells are illegal, so
the policy zeroes their probability and renormalises before sampling."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
CELLS, HIDDEN, BATCH = 9, 64, 32
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def random_boards(n):
    """Boards with one line two-thirds filled by the agent (+1), plus some opponent stones."""
    boards = torch.zeros(n, CELLS)
    winning = torch.zeros(n, dtype=torch.long)
    for i in range(n):
        line = LINES[torch.randint(len(LINES), (1,)).item()]
        gap = line[torch.randint(3, (1,)).item()]
        for c in line:
            if c != gap:
                boards[i, c] = 1.0
        free = [c for c in range(CELLS) if boards[i, c] == 0 and c != gap]
        for c in free[:2]:
            boards[i, c] = -1.0
        winning[i] = gap
    return boards, winning


class PolicyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(CELLS, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, HIDDEN), nn.Tanh())
        self.head = nn.Linear(HIDDEN, CELLS)

    def forward(self, boards):
        probs = F.softmax(self.head(self.body(boards)), dim=-1)
        legal = boards == 0
        probs.masked_fill_(~legal, 0.0)
        return probs / probs.sum(dim=-1, keepdim=True)


def train(updates=6):
    policy = PolicyNet()
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    baseline = 0.0
    for update in range(updates):
        boards, winning = random_boards(BATCH)
        dist = Categorical(probs=policy(boards))
        moves = dist.sample()
        rewards = (moves == winning).float()
        advantage = rewards - baseline
        loss = -(dist.log_prob(moves) * advantage).mean() - 0.01 * dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        baseline = 0.9 * baseline + 0.1 * rewards.mean().item()
        print(f"update {update} loss {loss.item():.4f} win rate {rewards.mean().item():.3f}")
    return policy


if __name__ == "__main__":
    train()
