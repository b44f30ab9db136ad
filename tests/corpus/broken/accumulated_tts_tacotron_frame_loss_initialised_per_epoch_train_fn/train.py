"""A tiny Tacotron: phoneme embeddings -> GRU encoder; an autoregressive GRUCell decoder with
content-based attention predicts one 6-bin mel frame and a stop logit per step, teacher
forced on the previous ground-truth frame. The decoder loss is summed frame by frame.
Synthetic corpus: each phoneme has a fixed spectral template held for 2-3 frames."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_PHONEMES, N_MELS, HIDDEN, BATCH, TEXT_LEN = 10, 6, 24, 3, 5


class TinyTacotron(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_PHONEMES, HIDDEN)
        self.encoder = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.prenet = nn.Sequential(nn.Linear(N_MELS, HIDDEN), nn.ReLU())
        self.cell = nn.GRUCell(2 * HIDDEN, HIDDEN)
        self.query = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.frame_out = nn.Linear(2 * HIDDEN, N_MELS)
        self.stop_out = nn.Linear(2 * HIDDEN, 1)

    def encode(self, phonemes):
        memory, _ = self.encoder(self.embed(phonemes))
        return memory

    def decoder_step(self, prev_frame, state, context, memory):
        state = self.cell(torch.cat([self.prenet(prev_frame), context], -1), state)
        scores = torch.einsum("bh,bth->bt", self.query(state), memory)
        context = torch.einsum("bt,bth->bh", scores.softmax(-1), memory)
        out = torch.cat([state, context], -1)
        return self.frame_out(out), self.stop_out(out).squeeze(-1), state, context


def utterance_batches(n_batches, gen):
    templates = torch.randn(N_PHONEMES, N_MELS, generator=gen)
    for _ in range(n_batches):
        phonemes = torch.randint(0, N_PHONEMES, (BATCH, TEXT_LEN), generator=gen)
        mels = torch.stack([templates[p].repeat_interleave(2 + (p % 2), dim=0)[:10]
                            for p in phonemes])  # (B, 10, N_MELS), padded by truncation
        stop = torch.zeros(BATCH, mels.size(1))
        stop[:, -1] = 1.0
        yield phonemes, mels, stop


def train(model, optimizer, epochs=2, batches_per_epoch=3):
    gen = torch.Generator().manual_seed(7)
    for epoch in range(epochs):
        loss = torch.zeros(())
        for i, (phonemes, mels, stop) in enumerate(utterance_batches(batches_per_epoch, gen)):
            memory = model.encode(phonemes)
            state = memory.new_zeros(BATCH, HIDDEN)
            context = memory.new_zeros(BATCH, HIDDEN)
            prev = mels.new_zeros(BATCH, N_MELS)
            for t in range(mels.size(1)):
                frame, stop_logit, state, context = model.decoder_step(prev, state, context, memory)
                loss = loss + F.l1_loss(frame, mels[:, t]) + \
                    F.binary_cross_entropy_with_logits(stop_logit, stop[:, t])
                prev = mels[:, t]
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {i} loss/frame {loss.item() / mels.size(1):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyTacotron()
    train(model, torch.optim.Adam(model.parameters(), lr=2e-3))
