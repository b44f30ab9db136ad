"""Streaming keyword spotter: an LSTM over log-mel frames, trained on consecutive chunks of
a long recording so that it learns to keep context across chunk boundaries."""
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, HIDDEN, N_KEYWORDS, CHUNK_FRAMES = 10, 24, 4, 5


@dataclass
class StreamState:
    hidden: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
    frames_seen: int = 0
    losses: List[float] = field(default_factory=list)


class KeywordSpotter(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = nn.Sequential(nn.Linear(N_MELS, HIDDEN), nn.ReLU())
        self.lstm = nn.LSTM(HIDDEN, HIDDEN, batch_first=True)
        self.classifier = nn.Linear(HIDDEN, N_KEYWORDS)

    def forward(self, mels, hidden):
        out, hidden = self.lstm(self.frontend(mels), hidden)
        return self.classifier(out[:, -1]), hidden


def fake_recording(batch, n_chunks):
    mels = torch.randn(batch, n_chunks * CHUNK_FRAMES, N_MELS)
    labels = torch.randint(0, N_KEYWORDS, (batch, n_chunks))
    return mels, labels


def run(n_chunks=5, batch=4):
    torch.manual_seed(0)
    model = KeywordSpotter()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    mels, labels = fake_recording(batch, n_chunks)
    stream = StreamState()
    for c in range(n_chunks):
        chunk = mels[:, c * CHUNK_FRAMES:(c + 1) * CHUNK_FRAMES]
        if stream.hidden is not None:
            stream.hidden = tuple(t.detach() for t in stream.hidden)
        logits, stream.hidden = model(chunk, stream.hidden)
        loss = F.cross_entropy(logits, labels[:, c])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stream.frames_seen += CHUNK_FRAMES
        stream.losses.append(loss.item())
        print(f"chunk {c} frames {stream.frames_seen} loss {loss.item():.4f}")
    return stream


if __name__ == "__main__":
    run()
