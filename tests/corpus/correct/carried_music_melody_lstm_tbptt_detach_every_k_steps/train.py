"""Note-by-note melody model (LSTMCell over MIDI pitches) trained with
truncated BPTT: the state is carried across every note, the loss of K notes
is summed and backwarded once, then the state is detached. Between updates
the carried state still has history on purpose."""
import torch
import torch.nn as nn
import torch.nn.functional as F

K = 4
PITCHES = 24  # two octaves from C4


class MelodyCell(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(PITCHES, 12)
        self.cell = nn.LSTMCell(12, hidden)
        self.out = nn.Linear(hidden, PITCHES)

    def forward(self, note, state):
        h, c = self.cell(self.embed(note), state)
        return self.out(h), (h, c)


def scale_melody(n_notes, seed=0):
    g = torch.Generator().manual_seed(seed)
    major = torch.tensor([0, 2, 4, 5, 7, 9, 11, 12, 14, 16])
    degree, notes = 3, []
    for _ in range(n_notes):
        degree = int(torch.clamp(torch.tensor(degree) + torch.randint(-2, 3, (1,), generator=g), 0, 9))
        notes.append(major[degree])
    return torch.stack(notes).view(-1, 1)


def main():
    torch.manual_seed(0)
    model = MelodyCell()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    melody = scale_melody(25)
    state = (torch.zeros(1, 32), torch.zeros(1, 32))
    window_loss, update = 0.0, 0

    for t in range(len(melody) - 1):
        logits, state = model(melody[t], state)
        window_loss = window_loss + F.cross_entropy(logits, melody[t + 1])
        if (t + 1) % K == 0:
            opt.zero_grad()
            (window_loss / K).backward()
            opt.step()
            print(f"update {update} notes {t + 1 - K}-{t} loss {window_loss.item() / K:.4f}")
            state = tuple(s.detach() for s in state)
            window_loss, update = 0.0, update + 1

    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
