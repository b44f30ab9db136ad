"""Learning without Forgetting (Li & Hoiem): before training a new task head, record the
network's responses for the old task on the new data and keep them as soft targets."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, N_OLD, N_NEW, BATCH, T = 12, 5, 3, 16, 2.0


class MultiHeadNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.heads = nn.ModuleDict({"old": nn.Linear(32, N_OLD), "new": nn.Linear(32, N_NEW)})

    def forward(self, x, task):
        return self.heads[task](self.backbone(x))


def new_task_data(n):
    x = torch.randn(n, IN_DIM)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    return x, y


def main(epochs=5, lambda_old=1.0):
    torch.manual_seed(0)
    model = MultiHeadNet()
    x_new, y_new = new_task_data(BATCH)
    old_logits = model(x_new, "old")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        new_loss = F.cross_entropy(model(x_new, "new"), y_new)
        old_loss = F.kl_div(F.log_softmax(model(x_new, "old") / T, -1),
                            F.softmax(old_logits / T, -1), reduction="batchmean") * T * T
        loss = new_loss + lambda_old * old_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: new {new_loss.item():.4f} old {old_loss.item():.5f}")
    return model


if __name__ == "__main__":
    main()
