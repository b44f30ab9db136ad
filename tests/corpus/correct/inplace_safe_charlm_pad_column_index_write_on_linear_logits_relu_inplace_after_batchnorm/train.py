"""Character-level MLP language model (Bengio-style) with several in-place ops that autograd allows."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog while the cat naps in the warm sun " * 3
PAD = 0
chars = ["<pad>"] + sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
CONTEXT, EMB = 4, 10


def make_dataset():
    ids = [stoi[c] for c in TEXT]
    xs, ys = [], []
    for i in range(len(ids)):
        window = ids[max(0, i - CONTEXT):i]
        xs.append([PAD] * (CONTEXT - len(window)) + window)
        ys.append(ids[i])
    return torch.tensor(xs), torch.tensor(ys)


class CharMLP(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.emb = nn.Embedding(vocab, EMB)
        self.pos = nn.Parameter(torch.zeros(CONTEXT, EMB))
        self.net = nn.Sequential(
            nn.Linear(CONTEXT * EMB, 48),
            nn.BatchNorm1d(48),
            nn.ReLU(inplace=True),       # BatchNorm saves its input, not its output
            nn.Linear(48, 48),
            nn.ReLU(inplace=True),       # Linear saves its input, not its output
            nn.Linear(48, vocab),
        )

    def forward(self, x):
        e = self.emb(x)
        e += self.pos                    # embedding backward keeps only the indices
        logits = self.net(e.flatten(1))
        logits[:, PAD] = -1e4            # never predict padding; addmm did not save its output
        return logits


def main():
    torch.manual_seed(0)
    xs, ys = make_dataset()
    model = CharMLP(len(chars))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        perm = torch.randperm(len(xs))
        running = 0.0
        for start in range(0, len(xs), 64):
            idx = perm[start:start + 64]
            loss = F.cross_entropy(model(xs[idx]), ys[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch}: mean_loss={running / ((len(xs) + 63) // 64):.4f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"param checksum: {checksum:.6f}")


if __name__ == "__main__":
    main()
