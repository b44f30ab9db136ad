"""Crowd counting: a small CNN predicts a density map, trained against head counts."""
import torch
import torch.nn as nn

torch.manual_seed(2)


def scene(batch=6, size=16):
    imgs = torch.zeros(batch, 1, size, size)
    counts = torch.randint(3, 12, (batch,))
    for b in range(batch):
        ys = torch.randint(0, size, (int(counts[b]),))
        xs = torch.randint(0, size, (int(counts[b]),))
        imgs[b, 0, ys, xs] = 1.0
    return imgs + 0.05 * torch.randn_like(imgs), counts.float()


density_net = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 1, 1), nn.Sigmoid(),
)
optimizer = torch.optim.SGD(density_net.parameters(), lr=1e-3, momentum=0.9)

for it in range(6):
    imgs, gt_counts = scene()
    density = density_net(imgs)
    # the count is the integral of the density map
    pred_counts = density.sum(dim=(1, 2, 3))
    loss = (pred_counts - gt_counts).abs().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it} count MAE {loss.item():.3f}")
