"""Adapting a next-item recommender to a small new shop. The item table starts from
catalogue-wide item2vec vectors and is fine-tuned with a 10x smaller learning rate than the
freshly initialised session encoder (discriminative learning rates, one param group each)."""
import torch
import torch.nn.functional as F

from model import NextItemGRU

torch.manual_seed(0)
N_ITEMS, DIM, SESSION_LEN, BATCH, EPOCHS = 40, 16, 6, 32, 4


def item2vec_vectors():
    """Stands in for vectors loaded from the catalogue-wide item2vec run (row 0 = padding)."""
    vectors = 0.3 * torch.randn(N_ITEMS, DIM)
    vectors[0] = 0.0
    return vectors


def sessions(n):
    """Shoppers browse mostly forward through a category: item i is followed by i+1 or i+2."""
    start = torch.randint(1, N_ITEMS - 2 * SESSION_LEN - 2, (n, 1))
    steps = torch.randint(1, 3, (n, SESSION_LEN)).cumsum(dim=1)
    seq = start + steps
    return seq[:, :-1], seq[:, -1]


def fit(model, epochs=EPOCHS, batches_per_epoch=2):
    optimizer = torch.optim.Adam([
        {"params": model.item_emb.parameters(), "lr": 1e-3},
        {"params": [*model.encoder.parameters(), *model.to_item_space.parameters()], "lr": 1e-2},
    ])
    for epoch in range(epochs):
        total = 0.0
        for _ in range(batches_per_epoch):
            history, target = sessions(BATCH)
            loss = F.cross_entropy(model(history), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / batches_per_epoch:.4f}")


model = NextItemGRU(item2vec_vectors())
fit(model)
with torch.no_grad():
    history, target = sessions(64)
    hit = (model(history).topk(5, dim=1).indices == target[:, None]).any(dim=1).float().mean()
print(f"hit@5 {hit.item():.3f}")
print(f"item table checksum {model.item_emb.weight.sum().item():.4f}")
