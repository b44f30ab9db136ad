"""Class-incremental training on two tasks (classes 0-1, then 2-3) with Dark
Experience Replay: a buffer of past inputs and their logits is replayed with
an MSE penalty so the network keeps its old responses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from buffer import LogitReplay

N_CLASSES, N_FEATS = 4, 10
ALPHA = 0.5


def task_stream(task, steps, centers, g):
    classes = torch.tensor([2 * task, 2 * task + 1])
    for _ in range(steps):
        y = classes[torch.randint(0, 2, (8,), generator=g)]
        x = centers[y] + 0.5 * torch.randn(8, N_FEATS, generator=g)
        yield x, y


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    centers = torch.randn(N_CLASSES, N_FEATS, generator=g) * 2
    net = nn.Sequential(nn.Linear(N_FEATS, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    memory = LogitReplay(capacity=48)

    for task in range(2):
        for step, (x, y) in enumerate(task_stream(task, 4, centers, g)):
            logits = net(x)
            loss = F.cross_entropy(logits, y)
            if len(memory) > 0:
                buf_x, buf_logits = memory.sample(8, g)
                loss = loss + ALPHA * F.mse_loss(net(buf_x), buf_logits)
            opt.zero_grad()
            loss.backward()
            opt.step()
            memory.add(x, logits)
            print(f"task {task} step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
