"""BYOL self-supervised pretraining on small image patches.

The target network is a frozen copy of the online encoder+projector. After each optimizer
step its weights move towards the online weights with torch._foreach_mul_/_foreach_add_
inside torch.no_grad(); its forward also runs under no_grad and only feeds the regression
targets.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)


def mlp(d_in, d_hidden, d_out):
    return nn.Sequential(nn.Linear(d_in, d_hidden), nn.BatchNorm1d(d_hidden), nn.ReLU(),
                         nn.Linear(d_hidden, d_out))


class BYOL(nn.Module):
    def __init__(self, tau=0.96):
        super().__init__()
        self.tau = tau
        encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.online = nn.Sequential(encoder, mlp(32, 32, 16))
        self.predictor = mlp(16, 32, 16)
        self.target = copy.deepcopy(self.online)
        self.target.requires_grad_(False)

    @torch.no_grad()
    def update_target(self):
        online = list(self.online.parameters())
        target = list(self.target.parameters())
        torch._foreach_mul_(target, self.tau)
        torch._foreach_add_(target, online, alpha=1.0 - self.tau)
        for t_buf, o_buf in zip(self.target.buffers(), self.online.buffers()):
            t_buf.copy_(o_buf)

    def loss(self, view_a, view_b):
        p_a = F.normalize(self.predictor(self.online(view_a)), dim=1)
        p_b = F.normalize(self.predictor(self.online(view_b)), dim=1)
        with torch.no_grad():
            z_a = F.normalize(self.target(view_a), dim=1)
            z_b = F.normalize(self.target(view_b), dim=1)
        return (2 - 2 * (p_a * z_b).sum(1)).mean() + (2 - 2 * (p_b * z_a).sum(1)).mean()


def augment(x):
    flip = torch.rand(x.shape[0], 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(3), x)
    return x * (0.8 + 0.4 * torch.rand(x.shape[0], 3, 1, 1)) + 0.05 * torch.randn_like(x)


model = BYOL()
trainable = list(model.online.parameters()) + list(model.predictor.parameters())
optimizer = torch.optim.SGD(trainable, lr=0.05, momentum=0.9)
images = torch.rand(6, 16, 3, 8, 8)
for step, batch in enumerate(images):
    loss = model.loss(augment(batch), augment(batch))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.update_target()
    gap = sum((o - t).abs().sum() for o, t in zip(model.online.parameters(),
                                                  model.target.parameters())).item()
    print(f"step {step} loss {loss.item():.6f} online-target gap {gap:.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
