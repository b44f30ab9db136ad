"""Quantization-aware training of a tiny MLP with a straight-through estimator written as a
custom autograd.Function. For debugging, forward stashes its ctx in a global dict and the
loop reports how many activations fell outside the clipping range."""
import torch
import torch.nn as nn
import torch.nn.functional as F

DEBUG = {}
LEVELS = 7


class QuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        DEBUG["ctx"] = ctx
        return torch.round(x.clamp(-1, 1) * LEVELS) / LEVELS

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() <= 1).to(grad_out.dtype)


class QuantMLP(nn.Module):
    def __init__(self, n_in=8, n_hid=16, n_out=3):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hid)
        self.fc2 = nn.Linear(n_hid, n_out)

    def forward(self, x):
        return self.fc2(QuantSTE.apply(self.fc1(x)))


def train(model, optimizer, steps):
    for step in range(steps):
        x = torch.randn(32, 8)
        y = torch.randint(0, 3, (32,))
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        (pre_act,) = DEBUG["ctx"].saved_tensors
        loss.backward()
        clipped = (pre_act.abs() > 1).float().mean().item()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} clipped {clipped:.2f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = QuantMLP()
    train(model, torch.optim.Adam(model.parameters(), lr=1e-2), steps=4)
