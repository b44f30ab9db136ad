"""Generalized matrix factorisation (GMF) for implicit feedback: each observed interaction
is paired with sampled negative items and scored with binary cross-entropy. The progress
line shows an exponentially smoothed loss, as in the usual implicit-feedback scripts."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from progress import Progress

N_USERS, N_ITEMS, DIM, NEGATIVES, BATCH = 25, 50, 8, 3, 32


class GMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.out = nn.Linear(DIM, 1)

    def forward(self, u, i):
        return self.out(self.users(u) * self.items(i)).squeeze(-1)


def interactions(gen, n=128):
    taste = torch.randn(N_USERS, 3, generator=gen)
    genre = torch.randn(N_ITEMS, 3, generator=gen)
    users = torch.randint(0, N_USERS, (n,), generator=gen)
    scores = taste[users] @ genre.t() + 0.5 * torch.randn(n, N_ITEMS, generator=gen)
    return users, scores.argmax(dim=1)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    users, items = interactions(gen)
    model = GMF()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    smooth_loss = 0.0
    for epoch in range(2):
        perm = torch.randperm(len(users), generator=gen)
        bar = Progress(len(users) // BATCH, desc=f"epoch {epoch}")
        for start in range(0, len(users) - BATCH + 1, BATCH):
            idx = perm[start:start + BATCH]
            u = users[idx].repeat_interleave(1 + NEGATIVES)
            negatives = torch.randint(0, N_ITEMS, (BATCH, NEGATIVES), generator=gen)
            i = torch.cat([items[idx, None], negatives], dim=1).reshape(-1)
            label = torch.tensor([1.0] + [0.0] * NEGATIVES).repeat(BATCH)
            loss = F.binary_cross_entropy_with_logits(model(u, i), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            smooth_loss = 0.9 * smooth_loss + 0.1 * loss.item()
            bar.set_postfix(loss=loss.item(), smooth=smooth_loss)
            bar.update()
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
