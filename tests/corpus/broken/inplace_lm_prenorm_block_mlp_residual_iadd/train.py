"""Character-level language modelling on a short built-in text with TinyGPT."""
import torch

from model import TinyGPT

TEXT = (
    "the quick brown fox jumps over the lazy dog. "
    "a journey of a thousand miles begins with a single step. "
    "all that glitters is not gold. "
) * 4
BLOCK = 16


def main():
    torch.manual_seed(0)
    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in TEXT])
    model = TinyGPT(len(chars), block_size=BLOCK)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)

    for step in range(6):
        starts = torch.randint(0, len(data) - BLOCK - 1, (8,))
        xb = torch.stack([data[s:s + BLOCK] for s in starts])
        yb = torch.stack([data[s + 1:s + BLOCK + 1] for s in starts])
        _, loss = model(xb, yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
