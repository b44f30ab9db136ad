"""Next-step piano-roll prediction for arpeggiated chord progressions. The model is
written with in-place operations throughout, each on a tensor nothing has saved yet:
scaling the input projection, adding learned positions, writing GRU states into a
preallocated buffer, masking pitches outside the instrument's range, and turning the
logits into probabilities for the metrics after backward."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PITCHES, STEPS, HIDDEN = 24, 16, 32
LOW, HIGH = 3, 21  # playable range of the instrument
MAJOR = [0, 4, 7]


def make_rolls(n):
    roll = torch.zeros(n, STEPS + 1, PITCHES)
    for b in range(n):
        root = int(torch.randint(LOW, HIGH - 12, (1,)))
        for t in range(STEPS + 1):
            chord = root + (5 if (t // 4) % 2 else 0)
            roll[b, t, chord + MAJOR[t % 3]] = 1.0
            if t % 4 == 0:
                roll[b, t, chord] = 1.0  # bass note on the beat
    return roll


class RollPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(PITCHES, HIDDEN)
        self.pos = nn.Parameter(0.02 * torch.randn(STEPS, HIDDEN))
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, PITCHES)
        playable = torch.zeros(PITCHES, dtype=torch.bool)
        playable[LOW:HIGH] = True
        self.register_buffer("playable", playable)

    def forward(self, roll):
        batch, steps, _ = roll.shape
        x = self.inp(roll)
        x.mul_(math.sqrt(HIDDEN) / 4)
        x += self.pos[:steps]
        h = x.new_zeros(batch, HIDDEN)
        states = x.new_empty(batch, steps, HIDDEN)
        for t in range(steps):
            h = self.cell(x[:, t], h)
            states[:, t] = h
        logits = self.out(states)
        logits[..., ~self.playable] = -30.0
        return logits


def main():
    rolls = make_rolls(48)
    model = RollPredictor()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=3e-3)
    for epoch in range(3):
        for start in range(0, 48, 16):
            batch = rolls[start:start + 16]
            logits = model(batch[:, :-1])
            target = batch[:, 1:]
            loss = F.binary_cross_entropy_with_logits(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                probs = logits.sigmoid_()
                hit = ((probs > 0.5) == target.bool()).float().mean().item()
        print(f"epoch {epoch} bce {loss.item():.4f} frame acc {hit:.4f}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))


if __name__ == "__main__":
    main()
