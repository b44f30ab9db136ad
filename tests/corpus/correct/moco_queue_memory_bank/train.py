"""MoCo-style contrastive learning: a momentum key encoder (no gradients), a queue of
negative keys kept in a registered buffer and updated under torch.no_grad() by in-place
slice assignment, and an InfoNCE loss over the query against positive key + queue."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(16)


class MoCo(nn.Module):
    def __init__(self, dim=8, queue_size=24, momentum=0.99, temperature=0.2):
        super().__init__()
        self.m, self.t = momentum, temperature
        self.encoder_q = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, dim))
        self.encoder_k = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, dim))
        for q, k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            k.data.copy_(q.data)
            k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, queue_size), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for q, k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            k.data = k.data * self.m + q.data * (1.0 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        n = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + n] = keys.T
        self.queue_ptr[0] = (ptr + n) % self.queue.shape[1]

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.t
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._enqueue(k)
        return logits, labels


model = MoCo()
optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
base = torch.randn(6, 8, 12)
for step, x in enumerate(base):
    view_q = x + 0.1 * torch.randn_like(x)
    view_k = x + 0.1 * torch.randn_like(x)
    logits, labels = model(view_q, view_k)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.6f} queue ptr {int(model.queue_ptr)}")
print(f"queue checksum {model.queue.sum().item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
