"""Small CNN on synthetic 16x16 blob images; every other step the training loop reports how
much memory the autograd graph's saved activations take."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from graph_stats import saved_activation_bytes

N_CLASSES = 4


def make_blobs(n, size=16):
    labels = torch.randint(0, N_CLASSES, (n,))
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    centers = torch.tensor([[4, 4], [4, 11], [11, 4], [11, 11]])[labels]
    dist = (ys - centers[:, 0, None, None]) ** 2 + (xs - centers[:, 1, None, None]) ** 2
    images = torch.exp(-dist.float() / 8.0) + 0.2 * torch.randn(n, size, size)
    return images.unsqueeze(1), labels


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out),
                         nn.ReLU(), nn.MaxPool2d(2))


torch.manual_seed(0)
model = nn.Sequential(conv_block(1, 8), conv_block(8, 16),
                      nn.Flatten(), nn.Linear(16 * 16, N_CLASSES))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(6):
    images, labels = make_blobs(32)
    loss = F.cross_entropy(model(images), labels)
    if step % 2 == 0:
        saved, nodes = saved_activation_bytes(loss.grad_fn)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 2 == 0:
        print(f"step {step} loss {loss.item():.4f} {nodes} nodes {saved / 1024:.1f} KiB saved")
