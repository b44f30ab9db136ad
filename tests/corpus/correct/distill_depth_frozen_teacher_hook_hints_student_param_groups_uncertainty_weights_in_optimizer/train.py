"""Distilling a monocular depth network into a small student. The teacher is frozen on
purpose (requires_grad_(False), eval mode, run under no_grad); its mid-level features are
tapped with a forward hook and matched by the student through a 1x1 adapter. The student's
encoder and decoder get different learning rates, and the depth / hint terms are balanced by
learned log-variances that live in the loss module, which gets its own param group."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, BATCH, STEPS = 16, 4, 6


def depth_net(width):
    return nn.ModuleDict({
        "encoder": nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU()),
        "decoder": nn.Sequential(nn.Upsample(scale_factor=2, mode="nearest"),
                                 nn.Conv2d(width, 1, 3, padding=1), nn.Softplus()),
    })


def run(net, x):
    return net["decoder"](net["encoder"](x))


class BalancedDistillLoss(nn.Module):
    """Kendall-style weighting of the depth and hint terms."""

    def __init__(self):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, depth_term, hint_term):
        terms = torch.stack([depth_term, hint_term])
        return (torch.exp(-self.log_vars) * terms + self.log_vars).sum()


teacher, student = depth_net(24), depth_net(8)
teacher.requires_grad_(False)
teacher.eval()
adapter = nn.Conv2d(8, 24, 1)
criterion = BalancedDistillLoss()

taps = {}
teacher["encoder"].register_forward_hook(lambda mod, inp, out: taps.__setitem__("teacher", out))
student["encoder"].register_forward_hook(lambda mod, inp, out: taps.__setitem__("student", out))

optimizer = torch.optim.Adam([
    {"params": student["encoder"].parameters(), "lr": 1e-3},
    {"params": [*student["decoder"].parameters(), *adapter.parameters()], "lr": 3e-3},
    {"params": criterion.parameters(), "lr": 1e-2},
])


def scenes(n):
    """Images whose brightness falls off with depth; depth grows towards the top rows."""
    depth = torch.linspace(4.0, 1.0, SIZE).view(1, 1, SIZE, 1).expand(n, 1, SIZE, SIZE)
    image = torch.rand(n, 3, SIZE, SIZE) * 0.2 + (1.0 / depth)
    return image


for step in range(STEPS):
    images = scenes(BATCH)
    with torch.no_grad():
        target_depth = run(teacher, images)
    pred_depth = run(student, images)
    depth_term = F.l1_loss(pred_depth.log(), target_depth.log())
    hint_term = F.mse_loss(adapter(taps["student"]), taps["teacher"])
    loss = criterion(depth_term, hint_term)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} depth {depth_term.item():.4f} "
          f"hint {hint_term.item():.4f} weights "
          + " ".join(f"{w:.4f}" for w in torch.exp(-criterion.log_vars).tolist()))

checksum = sum(p.sum() for p in student.parameters()) + criterion.log_vars.sum()
print(f"student checksum {checksum.item():.4f}")
print(f"teacher unchanged {all(not p.requires_grad for p in teacher.parameters())}")
