"""Train SegmentLM on a long token stream, one segment after the other, so that the layer
memories carry context across segment boundaries."""
import torch
import torch.nn.functional as F

from model import SegmentLM

VOCAB, SEG_LEN, BATCH, N_SEGMENTS = 24, 6, 3, 3


def token_stream(length):
    start = torch.randint(0, VOCAB, (BATCH, 1))
    return (start + torch.arange(length) * 5 + torch.randint(0, 2, (BATCH, length))) % VOCAB


def main():
    torch.manual_seed(0)
    model = SegmentLM(VOCAB)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    stream = token_stream(N_SEGMENTS * SEG_LEN + 1)
    model.reset_memory()
    for seg in range(N_SEGMENTS):
        lo = seg * SEG_LEN
        inputs, targets = stream[:, lo:lo + SEG_LEN], stream[:, lo + 1:lo + SEG_LEN + 1]
        logits = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"segment {seg} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
