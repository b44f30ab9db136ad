"""Distil a wide MLP teacher into a small student with a logit (soft-target) loss plus a
feature-matching loss on L2-normalised embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import feature_kd_loss, soft_target_loss

IN_DIM, EMB, N_CLASSES = 20, 16, 5


class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU(), nn.Linear(hidden, EMB))
        self.head = nn.Linear(EMB, N_CLASSES)

    def forward(self, x):
        feat = self.body(x)
        return feat, self.head(F.relu(feat))


def run(epochs=2, batches=3, alpha=0.7, beta=2.0):
    torch.manual_seed(0)
    teacher, student = Net(hidden=128).eval(), Net(hidden=24)
    optimizer = torch.optim.Adam(student.parameters(), lr=3e-3)
    proj = torch.randn(IN_DIM, N_CLASSES)
    for epoch in range(epochs):
        for _ in range(batches):
            x = torch.randn(64, IN_DIM)
            y = (x @ proj).argmax(dim=1)
            with torch.no_grad():
                t_feat, t_logits = teacher(x)
            s_feat, s_logits = student(x)
            loss = ((1 - alpha) * F.cross_entropy(s_logits, y)
                    + alpha * soft_target_loss(s_logits, t_logits)
                    + beta * feature_kd_loss(s_feat, t_feat))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    run()
