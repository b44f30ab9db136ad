"""Two-layer GCN for node classification. Full-graph propagation is expensive, so the
model caches node embeddings and only refreshes them every few steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, IN_DIM, HID, N_CLASSES, REFRESH = 40, 8, 16, 3, 2


class CachedGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Linear(IN_DIM, HID)
        self.conv2 = nn.Linear(HID, HID)
        self.classify = nn.Linear(HID, N_CLASSES)
        self.cached_h = None

    def forward(self, x, adj, nodes, use_cache=False):
        if use_cache and self.cached_h is not None:
            h = self.cached_h
        else:
            h = F.relu(adj @ self.conv1(x))
            h = F.relu(adj @ self.conv2(h))
            self.cached_h = h
        return self.classify(h[nodes])


x = torch.randn(N, IN_DIM)
a = (torch.rand(N, N) < 0.1).float()
a = ((a + a.t() + torch.eye(N)) > 0).float()
adj = a / a.sum(1, keepdim=True)
labels = torch.randint(0, N_CLASSES, (N,))

model = CachedGCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for step, nodes in enumerate(torch.randperm(N).split(8)):
    logits = model(x, adj, nodes, use_cache=step % REFRESH != 0)
    loss = F.cross_entropy(logits, labels[nodes])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
