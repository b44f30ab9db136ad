"""Train the Infini-attention LM on long documents split into segments.

Each document is read segment by segment; the attention memory carries what was read in the
earlier segments, and the model takes an optimizer step after every segment to keep
activation memory bounded by one segment.
"""
import math

import torch
import torch.nn.functional as F

from model import InfiniBlockLM

VOCAB, SEG_LEN, N_SEGMENTS, BATCH = 48, 8, 4, 2


def long_documents(batch, length):
    """Documents with a repeated motif: the motif from segment 0 recurs later on."""
    motif = torch.randint(0, VOCAB, (batch, SEG_LEN))
    docs = torch.randint(0, VOCAB, (batch, length))
    docs[:, : SEG_LEN] = motif
    docs[:, length - SEG_LEN - 1: length - 1] = motif
    return docs


def main():
    torch.manual_seed(0)
    model = InfiniBlockLM(VOCAB)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for doc_id in range(2):
        docs = long_documents(BATCH, SEG_LEN * N_SEGMENTS + 1)
        model.reset_memory()
        for s in range(N_SEGMENTS):
            seg = docs[:, s * SEG_LEN:(s + 1) * SEG_LEN + 1]
            logits = model(seg[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), seg[:, 1:].reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            print(f"doc {doc_id} segment {s} loss {loss.item():.4f} ppl {math.exp(loss.item()):.1f}")


if __name__ == "__main__":
    main()
