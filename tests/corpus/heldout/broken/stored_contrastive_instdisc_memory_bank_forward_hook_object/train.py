"""Unsupervised pre-training by non-parametric instance discrimination: each of the N training
examples is its own class, and a memory bank of per-example embeddings, kept fresh by a forward
hook on the embedding head, supplies the class weights of the softmax."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import MemoryBankHook

N_ITEMS, IN_DIM, EMB_DIM, BATCH, TEMPERATURE = 48, 24, 16, 16, 0.1


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.head = nn.Linear(32, EMB_DIM)

    def forward(self, x):
        return self.head(self.backbone(x))


def augment(x):
    keep = (torch.rand_like(x) > 0.2).float()
    return x * keep + 0.05 * torch.randn_like(x)


torch.manual_seed(0)
prototypes = torch.randn(6, IN_DIM)
data = prototypes[torch.arange(N_ITEMS) % 6] + 0.4 * torch.randn(N_ITEMS, IN_DIM)

model = Embedder()
memory = MemoryBankHook(N_ITEMS, EMB_DIM, momentum=0.5)
model.head.register_forward_hook(memory)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

step = 0
for epoch in range(2):
    order = torch.randperm(N_ITEMS)
    for start in range(0, N_ITEMS, BATCH):
        index = order[start:start + BATCH]
        memory.set_batch(index)
        features = model(augment(data[index]))
        logits = memory.logits(features, TEMPERATURE)
        loss = F.cross_entropy(logits, index)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        acc = (logits.argmax(1) == index).float().mean().item()
        print(f"epoch {epoch} step {step}: nce loss {loss.item():.4f} instance acc {acc:.3f}")
    print(f"epoch {epoch}: bank updates {memory.updates}, mean slot similarity {memory.spread():.4f}")
