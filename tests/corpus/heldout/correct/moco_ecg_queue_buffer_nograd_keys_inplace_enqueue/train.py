"""MoCo pretraining for single-lead ECG beats. The key encoder is a momentum copy of the
query encoder, the negative queue is a registered buffer overwritten in place, and a ring
pointer advances through it."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

BEAT, EMB, K, BATCH, T, M = 40, 16, 48, 12, 0.1, 0.95


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 8, 7, padding=3), nn.ReLU(),
                                  nn.Conv1d(8, 16, 5, stride=2, padding=2), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, EMB))

    def forward(self, x):
        return F.normalize(self.head(self.conv(x.unsqueeze(1)).mean(dim=2)), dim=1)


class MoCo(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder_q = Encoder()
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(K, EMB), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(M).add_(pq.detach(), alpha=1 - M)

    @torch.no_grad()
    def enqueue(self, keys):
        start = int(self.ptr)
        idx = (torch.arange(keys.size(0)) + start) % K
        self.queue[idx] = keys
        self.ptr.fill_((start + keys.size(0)) % K)

    def forward(self, view_q, view_k):
        q = self.encoder_q(view_q)
        with torch.no_grad():
            self.momentum_update()
            k = self.encoder_k(view_k)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ self.queue.clone().t()], dim=1)
        loss = F.cross_entropy(logits / T, torch.zeros(q.size(0), dtype=torch.long))
        self.enqueue(k)
        return loss


def beats(n):
    t = torch.linspace(-1, 1, BEAT)
    qrs = torch.exp(-((t - 0.1 * torch.randn(n, 1)) ** 2) / 0.01)
    return qrs + 0.2 * torch.exp(-((t - 0.5) ** 2) / 0.05) + 0.05 * torch.randn(n, BEAT)


def augment(x):
    return x * (1 + 0.1 * torch.randn(x.size(0), 1)) + 0.03 * torch.randn_like(x)


torch.manual_seed(0)
model = MoCo()
optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
for step in range(6):
    x = beats(BATCH)
    loss = model(augment(x), augment(x))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} ptr {int(model.ptr)}")
print(f"query encoder checksum {sum(p.sum().item() for p in model.encoder_q.parameters()):.6f}")
