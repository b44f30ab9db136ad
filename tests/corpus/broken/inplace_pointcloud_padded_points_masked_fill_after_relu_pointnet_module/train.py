import torch
import torch.nn.functional as F

from pointnet import PointNetCls

SHAPES = ("sphere", "cube", "plane", "rod")


def sample_cloud(label, n, gen):
    pts = torch.randn(n, 3, generator=gen)
    if label == 0:
        pts = pts / pts.norm(dim=1, keepdim=True)
    elif label == 1:
        pts = pts.clamp(-1, 1)
    elif label == 2:
        pts[:, 2] = 0.0
    else:
        pts = pts * torch.tensor([2.0, 0.3, 0.3])
    return pts


def padded_batch(gen, batch=6, max_pts=24):
    labels = torch.randint(0, len(SHAPES), (batch,), generator=gen)
    counts = torch.randint(12, max_pts + 1, (batch,), generator=gen)
    pts = torch.zeros(batch, max_pts, 3)
    valid = torch.zeros(batch, max_pts, dtype=torch.bool)
    for i in range(batch):
        n = int(counts[i])
        pts[i, :n] = sample_cloud(int(labels[i]), n, gen)
        valid[i, :n] = True
    return pts, valid, labels


torch.manual_seed(0)
gen = torch.Generator().manual_seed(5)
model = PointNetCls(n_classes=len(SHAPES))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(2):
    total = 0.0
    for it in range(3):
        pts, valid, labels = padded_batch(gen)
        logits = model(pts, valid)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} mean loss {total / 3:.4f}")
