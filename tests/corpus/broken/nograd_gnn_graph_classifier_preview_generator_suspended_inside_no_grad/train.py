"""Graph classification (ring vs. star vs. clique motifs) with a two-layer GCN and mean
pooling; after every epoch one held-out graph is previewed from a prediction stream."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from monitor import preview_predictions

N_FEATS, HIDDEN, N_CLASSES = 4, 16, 3


def motif_graph(kind, n=7):
    a = torch.zeros(n, n)
    idx = torch.arange(n)
    if kind == 0:
        a[idx, (idx + 1) % n] = 1.0
    elif kind == 1:
        a[0, 1:] = 1.0
    else:
        a = torch.ones(n, n) - torch.eye(n)
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt()
    x = torch.randn(n, N_FEATS) * 0.5 + a.sum(1, keepdim=True) / n
    return x, d[:, None] * a * d[None, :], kind


class GraphClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.gc1 = nn.Linear(N_FEATS, HIDDEN)
        self.gc2 = nn.Linear(HIDDEN, HIDDEN)
        self.readout = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, a_hat):
        h = torch.relu(a_hat @ self.gc1(x))
        h = torch.relu(a_hat @ self.gc2(h))
        return self.readout(h.mean(0, keepdim=True))


torch.manual_seed(0)
model = GraphClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train_graphs = [motif_graph(k % N_CLASSES) for k in range(12)]
val_stream = preview_predictions(model, [motif_graph(k) for k in range(N_CLASSES)])

for epoch in range(3):
    for start in range(0, len(train_graphs), 6):
        batch = train_graphs[start:start + 6]
        logits = torch.cat([model(x, a_hat) for x, a_hat, _ in batch])
        labels = torch.tensor([label for _, _, label in batch])
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    label, pred, conf = next(val_stream)
    print(f"  preview: label {label} predicted {pred} ({conf:.2f})")
print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
