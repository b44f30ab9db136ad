"""Second-order MAML on 1-D regression tasks (random linear-plus-sine functions), five meta
steps with one task each."""
import torch
import torch.nn.functional as F
from torch.func import functional_call

INNER_STEPS, INNER_LR, K_SHOT = 2, 0.05, 10


def sample_task():
    slope, amp = torch.randn(1), 0.5 + torch.rand(1)
    x = torch.rand(2 * K_SHOT, 1) * 4 - 2
    y = slope * x + amp * torch.sin(3 * x)
    return x[:K_SHOT], y[:K_SHOT], x[K_SHOT:], y[K_SHOT:]


def main():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(1, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))
    meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    fast = dict(net.named_parameters())

    for step in range(5):
        xs, ys, xq, yq = sample_task()
        for _ in range(INNER_STEPS):
            support_loss = F.mse_loss(functional_call(net, fast, (xs,)), ys)
            grads = torch.autograd.grad(support_loss, list(fast.values()), create_graph=True)
            fast = {name: w - INNER_LR * g for (name, w), g in zip(fast.items(), grads)}
        query_loss = F.mse_loss(functional_call(net, fast, (xq,)), yq)
        meta_opt.zero_grad()
        query_loss.backward()
        meta_opt.step()
        print(f"meta step {step} query loss {query_loss.item():.4f}")


if __name__ == "__main__":
    main()
