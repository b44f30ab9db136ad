import torch
import torch.nn as nn

from postprocess import drop_invisible, soft_argmax, spatial_softmax

torch.manual_seed(0)
J, H, W = 5, 8, 8

net = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.Conv2d(16, J, 1),
)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)

for it in range(6):
    img = torch.randn(4, 1, H, W)
    gt = torch.rand(4, J, 2) * (W - 1)
    visible = torch.rand(4, J) > 0.2

    heat = net(img)
    prob = spatial_softmax(heat)
    prob = drop_invisible(prob, visible)
    coords = soft_argmax(prob, H, W)

    err = (coords - gt).abs().sum(-1)
    loss = (err * visible).sum() / visible.sum().clamp(min=1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it} l1 {loss.item():.4f}")
