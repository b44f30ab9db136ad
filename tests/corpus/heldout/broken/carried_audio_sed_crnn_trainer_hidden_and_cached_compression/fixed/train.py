"""Streaming sound-event detector (CRNN) over consecutive chunks of long recordings. The
frontend applies a learnable per-band power-law compression to the mel energies; the GRU
state is carried from chunk to chunk so that events crossing a boundary are recognised."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, HIDDEN, N_EVENTS, CHUNK = 12, 20, 3, 6


class CompressionFrontend(nn.Module):
    def __init__(self):
        super().__init__()
        self.exponent_raw = nn.Parameter(torch.full((N_MELS,), -1.0))

    def exponent(self):
        return F.softplus(self.exponent_raw)


class CRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = CompressionFrontend()
        self.conv = nn.Conv1d(N_MELS, HIDDEN, kernel_size=3, padding=1)
        self.gru = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, N_EVENTS)

    def forward(self, compressed, hidden):
        x = F.relu(self.conv(compressed.transpose(1, 2))).transpose(1, 2)
        out, hidden = self.gru(x, hidden)
        return self.head(out), hidden


class StreamingTrainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.hidden = None

    def train_chunk(self, mel, labels):
        compressed = mel.clamp(min=1e-5) ** self.model.frontend.exponent()
        logits, hidden = self.model(compressed, self.hidden)
        self.hidden = hidden.detach()
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, recordings, labels, epochs=1):
        for epoch in range(epochs):
            self.hidden = None
            for c in range(recordings.size(1) // CHUNK):
                sl = slice(c * CHUNK, (c + 1) * CHUNK)
                loss = self.train_chunk(recordings[:, sl], labels[:, sl])
                print(f"epoch {epoch} chunk {c}: bce {loss:.4f}")


def synth_recordings(batch=4, frames=CHUNK * 4):
    labels = torch.zeros(batch, frames, N_EVENTS)
    mel = 0.05 * torch.rand(batch, frames, N_MELS)
    for b in range(batch):
        for e in range(N_EVENTS):
            start = int(torch.randint(0, frames - 8, (1,)))
            labels[b, start:start + 8, e] = 1.0
            mel[b, start:start + 8, 4 * e:4 * e + 4] += 1.0
    return mel, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    mel, labels = synth_recordings()
    StreamingTrainer(CRNN()).fit(mel, labels)
