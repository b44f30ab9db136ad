"""Always-on keyword spotter trained online on a stream of filterbank frames: a spiking
layer (LIF neurons keeping their membrane on the module) followed by a linear readout of
the spike counts. Every chunk of frames is one update; the membrane is meant to carry on
from the previous chunk, as it will on the device.

The second chunk used to fail with "Trying to backward through the graph a second time",
so the backward call keeps the graph now."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from neurons import LIFNeuron

N_MELS, N_HIDDEN, N_WORDS, CHUNK, BATCH = 16, 40, 3, 10, 4


class SpikingKWS(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(N_MELS, N_HIDDEN)
        self.lif = LIFNeuron(BATCH, N_HIDDEN)
        self.readout = nn.Linear(N_HIDDEN, N_WORDS)

    def forward(self, frames):
        counts = 0.0
        for t in range(frames.size(1)):
            counts = counts + self.lif(self.fc(frames[:, t]))
        return self.readout(counts / frames.size(1))


class StreamTrainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, frames, words):
        logits = self.model(frames)
        loss = F.cross_entropy(logits, words)
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        return loss.item()


def frame_stream(n_chunks):
    """Each chunk is one spoken word per stream; the word sets which mel bands are loud."""
    for _ in range(n_chunks):
        words = torch.randint(0, N_WORDS, (BATCH,))
        frames = 0.3 * torch.rand(BATCH, CHUNK, N_MELS)
        for i, w in enumerate(words.tolist()):
            frames[i, :, 5 * w:5 * w + 5] += 1.5
        yield frames, words


def main():
    torch.manual_seed(0)
    trainer = StreamTrainer(SpikingKWS())
    for k, (frames, words) in enumerate(frame_stream(8)):
        loss = trainer.step(frames, words)
        print(f"chunk {k} loss {loss:.4f}")


if __name__ == "__main__":
    main()
