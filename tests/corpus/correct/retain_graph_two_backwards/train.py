"""Multi-task model: two task losses over one shared trunk. The first backward keeps the
graph (retain_graph=True) so the per-task gradient norm of the trunk can be logged; the
second backward accumulates into the same .grad and frees the graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 20), nn.Tanh())
        self.cls_head = nn.Linear(20, 3)
        self.reg_head = nn.Linear(20, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)


def trunk_grad_norm(model):
    return torch.sqrt(sum((p.grad ** 2).sum() for p in model.trunk.parameters())).item()


def train(model, batches, opt):
    for step, (x, labels, values) in enumerate(batches):
        opt.zero_grad()
        logits, pred = model(x)
        cls_loss = F.cross_entropy(logits, labels)
        reg_loss = F.mse_loss(pred, values)
        cls_loss.backward(retain_graph=True)
        norm_cls = trunk_grad_norm(model)
        reg_loss.backward()
        norm_total = trunk_grad_norm(model)
        opt.step()
        print(f"step {step} cls {cls_loss.item():.6f} reg {reg_loss.item():.6f} "
              f"|g_cls| {norm_cls:.6f} |g_total| {norm_total:.6f}")


model = MultiTask()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
batches = [(torch.randn(12, 6), torch.randint(0, 3, (12,)), torch.randn(12)) for _ in range(5)]
train(model, batches, opt)
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
