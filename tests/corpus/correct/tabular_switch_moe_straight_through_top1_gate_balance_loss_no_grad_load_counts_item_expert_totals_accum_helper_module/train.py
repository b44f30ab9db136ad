"""Switch-style mixture of experts for a tabular pricing problem with three regimes.

Each row goes to exactly one expert (hard top-1 routing). The router still learns:
the gate is straight-through (one-hot forward, softmax gradient) and a Switch
load-balancing term multiplies the hard dispatch fractions (constants) by the mean
router probabilities (differentiable). Per-expert losses are logged as floats.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from accum import MicroBatchAccumulator

torch.manual_seed(17)
FEATS, EXPERTS, HIDDEN = 5, 3, 16


class SwitchRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(FEATS, EXPERTS)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(FEATS, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))
            for _ in range(EXPERTS))

    def forward(self, x):
        probs = self.router(x).softmax(dim=-1)
        choice = probs.argmax(dim=-1)
        hard = F.one_hot(choice, EXPERTS).float()
        gate = hard + probs - probs.detach()  # straight-through top-1
        outs = torch.cat([e(x) for e in self.experts], dim=-1)
        return (gate * outs).sum(dim=-1), probs, choice


def balance_loss(probs, choice):
    dispatch = F.one_hot(choice, EXPERTS).float().mean(dim=0)  # hard fractions, constant
    return EXPERTS * (dispatch * probs.mean(dim=0)).sum()


def make_rows(n=96):
    x = torch.randn(n, FEATS)
    regime = (x[:, 0] > 0.5).long() + (x[:, 0] > -0.5).long()
    slopes = torch.tensor([[1.0, -2.0, 0.5, 0.0, 1.0],
                           [0.0, 1.5, -1.0, 2.0, 0.0],
                           [-1.0, 0.0, 0.0, 1.0, 2.0]])
    y = (x * slopes[regime]).sum(dim=-1) + 0.1 * torch.randn(n)
    return x, y


def main(epochs=3, micro=12, accum_every=2):
    model = SwitchRegressor()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    accumulator = MicroBatchAccumulator(optimizer, accum_every)
    x, y = make_rows()
    for epoch in range(epochs):
        expert_loss = {e: 0.0 for e in range(EXPERTS)}
        load = torch.zeros(EXPERTS, dtype=torch.long)
        windows = []
        for s in range(0, len(x), micro):
            pred, probs, choice = model(x[s:s + micro])
            per_row = (pred - y[s:s + micro]).pow(2)
            loss = per_row.mean() + 0.05 * balance_loss(probs, choice)
            with torch.no_grad():
                load += torch.bincount(choice, minlength=EXPERTS)
                for e in range(EXPERTS):
                    expert_loss[e] += per_row[choice == e].sum().item()
            mean = accumulator.backward(loss)
            if mean is not None:
                windows.append(mean)
        per_expert = " ".join(f"e{e}:{expert_loss[e] / max(int(load[e]), 1):.3f}"
                              for e in range(EXPERTS))
        print(f"epoch {epoch} loss {sum(windows) / len(windows):.4f} "
              f"load {load.tolist()} {per_expert}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 6))


if __name__ == "__main__":
    main()
