"""Multi-track symbolic music generation (drums / bass / lead) on a 16-step pianoroll grid.
A shared GRU reads the previous step of all three tracks and three heads predict which
pitches of each track are on at the next step (multi-label BCE). The trainer keeps one
running meter per track for logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TRACKS = {"drums": 4, "bass": 8, "lead": 12}  # pitch rows per track
STEPS, BATCH, HIDDEN = 16, 4, 32


class MultiTrackComposer(nn.Module):
    def __init__(self):
        super().__init__()
        n_in = sum(TRACKS.values())
        self.rnn = nn.GRU(n_in, HIDDEN, batch_first=True)
        self.heads = nn.ModuleDict({name: nn.Linear(HIDDEN, rows) for name, rows in TRACKS.items()})

    def forward(self, roll):
        h, _ = self.rnn(roll)
        return {name: head(h) for name, head in self.heads.items()}


def split_tracks(roll):
    out, start = {}, 0
    for name, rows in TRACKS.items():
        out[name] = roll[..., start:start + rows]
        start += rows
    return out


def random_grooves(batch):
    """Four-on-the-floor kick, off-beat hats, a bass root per bar, an arpeggiated lead."""
    roll = torch.zeros(batch, STEPS, sum(TRACKS.values()))
    root = torch.randint(0, 4, (batch,))
    for t in range(STEPS):
        roll[:, t, 0] = float(t % 4 == 0)
        roll[:, t, 1] = float(t % 4 == 2)
        roll[torch.arange(batch), t, 4 + root + 4 * (t >= 8)] = 1.0
        roll[torch.arange(batch), t, 12 + (root * 2 + t) % 12] = 1.0
    return roll


class Trainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.meters = {name: 0.0 for name in TRACKS}
        self.steps = 0

    def training_step(self, roll):
        logits = self.model(roll[:, :-1])
        targets = split_tracks(roll[:, 1:])
        losses = {name: F.binary_cross_entropy_with_logits(logits[name], targets[name])
                  for name in TRACKS}
        total = sum(losses.values())
        self.optimizer.zero_grad()
        for name, loss in losses.items():
            self.meters[name] += loss.item()
        total.backward()
        self.optimizer.step()
        self.steps += 1
        return total.item()


def main():
    torch.manual_seed(0)
    trainer = Trainer(MultiTrackComposer())
    for step in range(5):
        total = trainer.training_step(random_grooves(BATCH))
        per_track = " ".join(f"{k} {v / trainer.steps:.3f}" for k, v in trainer.meters.items())
        print(f"step {step} total {total:.4f} | {per_track}")


if __name__ == "__main__":
    main()
