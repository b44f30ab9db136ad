"""Class-incremental training on two synthetic tasks with Dark Experience Replay (DER):
replayed samples are regularised towards the logits recorded when they were first seen."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from buffer import ReservoirBuffer

IN_DIM, N_CLASSES, BATCH, ALPHA = 16, 4, 8, 0.3


def task_stream(task, n_batches, centers):
    for _ in range(n_batches):
        y = torch.randint(0, 2, (BATCH,)) + 2 * task
        yield centers[y] + 0.5 * torch.randn(BATCH, IN_DIM), y


def main():
    torch.manual_seed(0)
    centers = torch.randn(N_CLASSES, IN_DIM) * 2
    net = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
    buffer = ReservoirBuffer(capacity=20)
    for task in range(2):
        for i, (x, y) in enumerate(task_stream(task, 3, centers)):
            logits = net(x)
            loss = F.cross_entropy(logits, y)
            if len(buffer) > 0:
                buf_x, buf_logits = buffer.sample(BATCH)
                loss = loss + ALPHA * F.mse_loss(net(buf_x), buf_logits)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            buffer.add(x, logits)
            print(f"task {task} batch {i}: loss {loss.item():.4f} buffer {len(buffer)}")


if __name__ == "__main__":
    main()
