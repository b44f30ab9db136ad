"""Train a streaming recogniser on long utterances cut into fixed-size chunks; each chunk has
its own CTC target (the tokens spoken inside it), and the encoder state flows from one chunk
to the next as it would at inference time."""
import torch
import torch.nn.functional as F

from streaming import StreamingEncoder, encode_chunk

N_MELS, VOCAB, CHUNK_FRAMES, N_CHUNKS, BATCH = 12, 8, 16, 3, 3


def synthetic_utterances(generator):
    mels = torch.randn(BATCH, CHUNK_FRAMES * N_CHUNKS, N_MELS, generator=generator)
    targets = torch.randint(1, VOCAB, (BATCH, N_CHUNKS, 3), generator=generator)
    lengths = torch.randint(1, 4, (BATCH, N_CHUNKS), generator=generator)
    return mels, targets, lengths


def train_epoch(model, optimizer, utterance_batches):
    total = 0.0
    for mels, targets, lengths in utterance_batches:
        state = None
        for c in range(N_CHUNKS):
            chunk = mels[:, c * CHUNK_FRAMES:(c + 1) * CHUNK_FRAMES]
            log_probs, state = encode_chunk(model, chunk, state)
            input_lengths = torch.full((BATCH,), log_probs.size(0), dtype=torch.long)
            loss = F.ctc_loss(log_probs, targets[:, c], input_lengths, lengths[:, c],
                              blank=0, zero_infinity=True)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            state = tuple(s.detach() for s in state)
            total += loss.item()
    return total / (len(utterance_batches) * N_CHUNKS)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    batches = [synthetic_utterances(gen) for _ in range(2)]
    model = StreamingEncoder(N_MELS, 32, VOCAB)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(2):
        print(f"epoch {epoch} ctc {train_epoch(model, optimizer, batches):.4f}")


if __name__ == "__main__":
    main()
