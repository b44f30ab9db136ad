"""Next-note model for folk melodies, trained with truncated BPTT.

Each tune is cut into chunks of CHUNK notes; the LSTM state is carried from chunk to
chunk (detached at the boundary) and reset for every new tune. The trainer also keeps
the whole tune's loss so the log shows per-tune numbers.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
PITCHES, CHUNK = 16, 6


class MelodyLSTM(nn.Module):
    def __init__(self, dim=20):
        super().__init__()
        self.embed = nn.Embedding(PITCHES, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, PITCHES)

    def forward(self, notes, state=None):
        h, state = self.lstm(self.embed(notes), state)
        return self.out(h), state


class TBPTTTrainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.sequence_loss = 0.0
        self.state = None

    def start_tune(self):
        self.sequence_loss = 0.0
        self.state = None

    def train_chunk(self, inputs, targets):
        if self.state is not None:
            self.state = tuple(s.detach() for s in self.state)
        logits, self.state = self.model(inputs, self.state)
        chunk_loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        self.sequence_loss = self.sequence_loss + chunk_loss.item()
        self.optimizer.zero_grad()
        chunk_loss.backward()
        self.optimizer.step()

    def train_tune(self, tune):
        self.start_tune()
        n_chunks = 0
        for s in range(0, tune.shape[1] - 1, CHUNK):
            self.train_chunk(tune[:, s:s + CHUNK], tune[:, s + 1:s + CHUNK + 1])
            n_chunks += 1
        return float(self.sequence_loss) / n_chunks


def make_tunes(n=3, batch=4, length=19):
    tunes = []
    for _ in range(n):
        start = torch.randint(0, PITCHES, (batch, 1))
        steps = torch.randint(-2, 3, (batch, length - 1))
        tunes.append(torch.cat([start, start + steps.cumsum(1)], 1) % PITCHES)
    return tunes


if __name__ == "__main__":
    trainer = TBPTTTrainer(MelodyLSTM())
    for epoch in range(2):
        for k, tune in enumerate(make_tunes()):
            print(f"epoch {epoch} tune {k} loss {trainer.train_tune(tune):.4f}")
    print("checksum", sum(p.sum().item() for p in trainer.model.parameters()))
