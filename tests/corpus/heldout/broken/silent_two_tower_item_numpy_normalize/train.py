"""Train the two-tower model with an in-batch softmax: each user's clicked item is the
positive, the other items of the batch are the negatives."""
import torch
import torch.nn.functional as F

from model import TwoTower

torch.manual_seed(0)
USER_DIM, ITEM_DIM, BATCH = 10, 12, 32
MIX = torch.randn(USER_DIM, ITEM_DIM)


def click_batch(n):
    users = torch.randn(n, USER_DIM)
    items = users @ MIX + 0.5 * torch.randn(n, ITEM_DIM)  # the item each user clicked
    return users, items


def train(steps=6):
    model = TwoTower(USER_DIM, ITEM_DIM)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    labels = torch.arange(BATCH)
    for step in range(steps):
        users, items = click_batch(BATCH)
        logits = model(users, items)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        recall = (logits.topk(5, dim=1).indices == labels[:, None]).any(1).float().mean()
        print(f"step {step} loss {loss.item():.4f} recall@5 {recall.item():.3f}")
    return model


train()
