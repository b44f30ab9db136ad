"""Second-order MAML on sine regression: the inner adaptation step uses
torch.autograd.grad(create_graph=True) so the meta-gradient flows through it; fast
weights are applied with torch.func.functional_call."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(17)
INNER_LR, TASKS_PER_BATCH, K = 0.05, 3, 5


def sample_task():
    amp, phase = torch.rand(1) * 4 + 0.1, torch.rand(1) * torch.pi
    def draw(n):
        x = torch.rand(n, 1) * 10 - 5
        return x, amp * torch.sin(x + phase)
    return draw


class MAML:
    def __init__(self):
        self.net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(),
                                 nn.Linear(32, 1))
        self.meta_opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)
        self.loss_fn = nn.MSELoss()

    def adapt(self, x, y):
        params = dict(self.net.named_parameters())
        loss = self.loss_fn(functional_call(self.net, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        return {name: p - INNER_LR * g for (name, p), g in zip(params.items(), grads)}

    def meta_step(self):
        self.meta_opt.zero_grad()
        total = 0.0
        for _ in range(TASKS_PER_BATCH):
            draw = sample_task()
            (xs, ys), (xq, yq) = draw(K), draw(K)
            fast = self.adapt(xs, ys)
            query_loss = self.loss_fn(functional_call(self.net, fast, (xq,)), yq)
            (query_loss / TASKS_PER_BATCH).backward()
            total += query_loss.item()
        self.meta_opt.step()
        return total / TASKS_PER_BATCH


maml = MAML()
for it in range(5):
    print(f"meta-iter {it} query loss {maml.meta_step():.6f}")
print(f"checksum {sum(p.sum().item() for p in maml.net.parameters()):.6f}")
