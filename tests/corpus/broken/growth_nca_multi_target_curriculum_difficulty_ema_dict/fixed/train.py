"""Goal-conditioned neural cellular automaton: one update rule grows three different
shapes, the goal being written into the hidden channels of the seed cell. A curriculum
picks the next goal with probability proportional to a moving average of its recent loss,
so the shapes the rule is worst at get trained more often."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CH, SIZE, BATCH, ROLLOUT = 10, 12, 4, 8


def shapes():
    yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    r = ((yy - SIZE / 2 + 0.5) ** 2 + (xx - SIZE / 2 + 0.5) ** 2).sqrt()
    ring = ((r > 2.5) & (r < 4.5)).float()
    cross = (((yy - SIZE // 2).abs() < 2) | ((xx - SIZE // 2).abs() < 2)).float()
    square = (((yy - SIZE // 2).abs() < 4) & ((xx - SIZE // 2).abs() < 4)).float()
    return {"ring": ring, "cross": cross, "square": square}


class GrowthRule(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        sobel = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8
        ident = torch.zeros(3, 3)
        ident[1, 1] = 1.0
        filters = torch.stack([ident, sobel, sobel.t()])[:, None].repeat(CH, 1, 1, 1)
        self.register_buffer("filters", filters)
        self.update = nn.Sequential(nn.Conv2d(3 * CH, hidden, 1), nn.ReLU(),
                                    nn.Conv2d(hidden, CH, 1, bias=False))
        nn.init.zeros_(self.update[2].weight)

    def forward(self, state):
        perception = F.conv2d(state, self.filters, padding=1, groups=CH)
        fire = (torch.rand_like(state[:, :1]) < 0.5).float()
        state = state + self.update(perception) * fire
        alive = F.max_pool2d(state[:, :1], 3, stride=1, padding=1) > 0.1
        return state * alive.float()


class TargetCurriculum:
    def __init__(self, names, momentum=0.7):
        self.names = list(names)
        self.momentum = momentum
        self.difficulty = {name: torch.tensor(1.0) for name in self.names}

    def pick(self):
        weights = torch.stack([self.difficulty[n] for n in self.names])
        return self.names[torch.multinomial(weights, 1).item()]

    def update(self, name, loss):
        self.difficulty[name] = self.momentum * self.difficulty[name] + (1 - self.momentum) * loss.item()


def seed(goal_index):
    state = torch.zeros(BATCH, CH, SIZE, SIZE)
    state[:, 0, SIZE // 2, SIZE // 2] = 1.0
    state[:, 1 + goal_index, SIZE // 2, SIZE // 2] = 1.0
    return state


def main():
    torch.manual_seed(0)
    targets = shapes()
    rule = GrowthRule()
    optimizer = torch.optim.Adam(rule.parameters(), lr=2e-3)
    curriculum = TargetCurriculum(targets)
    for it in range(8):
        name = curriculum.pick()
        state = seed(curriculum.names.index(name))
        for _ in range(ROLLOUT):
            state = rule(state)
        loss = F.mse_loss(state[:, 0], targets[name].expand(BATCH, -1, -1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        curriculum.update(name, loss)
        print(f"iter {it} goal {name:6s} loss {loss.item():.4f}")
    print({k: round(v.item(), 4) for k, v in curriculum.difficulty.items()})


if __name__ == "__main__":
    main()
