"""Daily rebalancing policy trained online with a turnover penalty against yesterday's weights."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn

torch.manual_seed(1)

N_ASSETS = 5
LOOKBACK = 10


@dataclass
class BookState:
    prev_weights: torch.Tensor
    wealth: float = 1.0
    rewards: list = field(default_factory=list)


class AllocationNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(LOOKBACK * N_ASSETS, 32), nn.Tanh())
        self.scorer = nn.Linear(32 + N_ASSETS, N_ASSETS)

    def forward(self, window, prev_w):
        z = self.encoder(window.flatten(1))
        return torch.softmax(self.scorer(torch.cat([z, prev_w], dim=1)), dim=1)


def simulated_returns(days):
    drift = torch.linspace(-0.001, 0.002, N_ASSETS)
    return drift + 0.01 * torch.randn(days, N_ASSETS)


def main():
    returns = simulated_returns(LOOKBACK + 6)
    net = AllocationNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    state = BookState(prev_weights=torch.full((1, N_ASSETS), 1.0 / N_ASSETS))
    cost_rate = 0.002

    for day in range(LOOKBACK, returns.shape[0]):
        window = returns[day - LOOKBACK:day].unsqueeze(0)
        w = net(window, state.prev_weights)
        gross = (w * returns[day]).sum()
        turnover = (w - state.prev_weights).abs().sum()
        reward = gross - cost_rate * turnover
        loss = -reward
        opt.zero_grad()
        loss.backward()
        opt.step()
        state.prev_weights = w
        state.wealth *= 1.0 + reward.item()
        state.rewards.append(reward.item())
        print(f"day {day} reward {reward.item():+.5f} wealth {state.wealth:.5f}")


if __name__ == "__main__":
    main()
