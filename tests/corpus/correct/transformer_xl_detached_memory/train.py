"""Train a Transformer-XL style LM on a long token stream, one segment at a time.

Hidden states of the previous segment are cached per layer (detached inside the model)
and attended to as extra context, so the model sees beyond the segment while each
backward only covers the current segment.
"""
import torch
import torch.nn.functional as F

from model import TransformerXL

torch.manual_seed(13)
VOCAB, SEG_LEN, BATCH = 20, 8, 4


def make_stream(length):
    base = torch.randint(0, VOCAB, (BATCH, 1))
    steps = torch.randint(1, 3, (BATCH, length))
    return (base + steps.cumsum(dim=1)) % VOCAB


def main():
    stream = make_stream(6 * SEG_LEN + 1)
    model = TransformerXL(VOCAB)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    mems = None
    losses = []
    for seg in range(6):
        start = seg * SEG_LEN
        inputs = stream[:, start:start + SEG_LEN]
        targets = stream[:, start + 1:start + SEG_LEN + 1]
        logits, mems = model(inputs, mems)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        losses.append(loss.item())
        print(f"segment {seg} loss {loss.item():.6f} mem len {mems[0].shape[1]}")
    print(f"mean loss {sum(losses) / len(losses):.6f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
    return losses


if __name__ == "__main__":
    main()
