"""Melody generation: a next-note model conditioned on a phrase context, a leaky average of
the note embeddings of the bars played so far. Four melodies are trained bar by bar in
parallel; the per-bar update is a closure that keeps the phrase context between calls.
retain_graph=True was added when the second bar's backward complained that the graph had
been freed."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NOTES, DIM, HIDDEN, VOICES, BAR, N_BARS, DECAY = 16, 12, 32, 4, 8, 12, 0.8


class NoteModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_NOTES, DIM)
        self.head = nn.Sequential(nn.Linear(2 * DIM, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, N_NOTES))

    def forward(self, notes, context):
        ctx = context[:, None].expand(-1, notes.size(1), -1)
        return self.head(torch.cat([self.embed(notes), ctx], -1))


def make_bar_trainer(model, optimizer):
    context = torch.zeros(VOICES, DIM)

    def train_bar(bar, next_notes):
        nonlocal context
        context = DECAY * context.detach() + (1 - DECAY) * model.embed(bar).mean(1)
        logits = model(bar, context)
        loss = F.cross_entropy(logits.reshape(-1, N_NOTES), next_notes.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()

    return train_bar


def scale_melodies(n_voices, length):
    """Random walks on a major scale, two octaves, mostly stepwise motion."""
    steps = torch.multinomial(torch.tensor([0.1, 0.35, 0.1, 0.35, 0.1]), n_voices * length, True)
    walk = (steps.view(n_voices, length) - 2).cumsum(1) + 7
    return walk.remainder(2 * 7).clamp(max=N_NOTES - 1)


torch.manual_seed(0)
model = NoteModel()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
train_bar = make_bar_trainer(model, optimizer)
melodies = scale_melodies(VOICES, N_BARS * BAR + 1)
for b in range(N_BARS):
    notes = melodies[:, b * BAR:(b + 1) * BAR + 1]
    loss = train_bar(notes[:, :-1], notes[:, 1:])
    print(f"bar {b} nll {loss:.4f}")
