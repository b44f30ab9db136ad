"""Train an ESMM recommender on a synthetic impression log. Two tasks share the
embeddings: click-through (CTR) and click-then-buy (CTCVR); the per-task losses are
collected in a dict for the epoch summary."""
from collections import defaultdict

import torch
import torch.nn.functional as F

from model import ESMM, make_impressions

N_USERS, N_ITEMS, BATCH = 30, 40, 32


def train(model, optimizer, data, epochs):
    users, items, click, buy = data
    for epoch in range(epochs):
        task_losses = defaultdict(float)
        n_batches = 0
        for start in range(0, len(click), BATCH):
            sl = slice(start, start + BATCH)
            p_ctr, p_ctcvr = model(users[sl], items[sl])
            batch = {
                "ctr": F.binary_cross_entropy(p_ctr, click[sl]),
                "ctcvr": F.binary_cross_entropy(p_ctcvr, buy[sl]),
            }
            for name, value in batch.items():
                task_losses[name] += value
            n_batches += 1
            loss = sum(task_losses.values())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        summary = "  ".join(f"{name} {float(total) / n_batches:.4f}"
                            for name, total in task_losses.items())
        print(f"epoch {epoch}  {summary}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    data = make_impressions(128, N_USERS, N_ITEMS, gen)
    model = ESMM(N_USERS, N_ITEMS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train(model, optimizer, data, epochs=2)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
