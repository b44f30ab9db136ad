"""Streaming chord recognition over a symbolic piano stream: every chunk of notes is labelled
with its chord, and a slowly moving key context (an exponential average of the note
embeddings heard so far in the piece) helps disambiguate relative major/minor chords.
Training runs online, chunk by chunk, through a small Trainer with callbacks.
retain_graph=True was added when the second chunk raised "Trying to backward through the
graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PITCH_CLASSES, DIM, N_CHORDS, NOTES_PER_CHUNK, STREAMS, CHUNKS = 12, 16, 6, 8, 4, 8
KEY_DECAY = 0.8


class ChordNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.note_emb = nn.Embedding(PITCH_CLASSES, DIM)
        self.head = nn.Sequential(nn.Linear(2 * DIM, 32), nn.ReLU(), nn.Linear(32, N_CHORDS))

    def forward(self, notes, key_ctx):
        local = self.note_emb(notes).mean(dim=1)
        return self.head(torch.cat([local, key_ctx], dim=-1))


class LossPrinter:
    def on_chunk_end(self, trainer, index, loss):
        print(f"chunk {index} loss {loss:.4f}")


class StreamingTrainer:
    def __init__(self, model, callbacks=(), lr=1e-2):
        self.model = model
        self.callbacks = list(callbacks)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.key_ctx = torch.zeros(STREAMS, DIM)

    def train_chunk(self, index, notes, chords):
        heard = self.model.note_emb(notes).mean(dim=1)
        self.key_ctx = KEY_DECAY * self.key_ctx + (1 - KEY_DECAY) * heard
        logits = self.model(notes, self.key_ctx)
        loss = F.cross_entropy(logits, chords)
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        for callback in self.callbacks:
            callback.on_chunk_end(self, index, loss.item())


def piano_stream(n_chunks):
    """Each stream stays in one key; chords are triads over the key's degrees."""
    key = torch.randint(0, PITCH_CLASSES, (STREAMS,))
    for _ in range(n_chunks):
        chord = torch.randint(0, N_CHORDS, (STREAMS,))
        root = (key + 2 * chord) % PITCH_CLASSES
        offsets = torch.tensor([0, 4, 7])[torch.randint(0, 3, (STREAMS, NOTES_PER_CHUNK))]
        yield (root[:, None] + offsets) % PITCH_CLASSES, chord


trainer = StreamingTrainer(ChordNet(), callbacks=[LossPrinter()])
for index, (notes, chords) in enumerate(piano_stream(CHUNKS)):
    trainer.train_chunk(index, notes, chords)
print(f"embedding checksum {trainer.model.note_emb.weight.sum().item():.4f}")
