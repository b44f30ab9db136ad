"""Distil a wide MLP teacher into a small student on a synthetic 5-class problem with
Hinton KD + CRD (crd.py). The teacher is frozen; the student and both CRD embedding heads
are trained."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from crd import CRDLoss

IN_DIM, N_CLASSES, N_DATA, BATCH, T_KD = 20, 5, 40, 10, 4.0


class MLP(nn.Module):
    def __init__(self, hidden, feat):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU(), nn.Linear(hidden, feat), nn.ReLU())
        self.fc = nn.Linear(feat, N_CLASSES)

    def forward(self, x):
        feat = self.body(x)
        return feat, self.fc(feat)


def kd_loss(s_logits, t_logits):
    p_t = F.softmax(t_logits / T_KD, dim=1)
    return F.kl_div(F.log_softmax(s_logits / T_KD, dim=1), p_t, reduction="batchmean") * T_KD ** 2


def train(epochs=2):
    torch.manual_seed(0)
    centers = torch.randn(N_CLASSES, IN_DIM) * 2
    labels = torch.arange(N_DATA) % N_CLASSES
    inputs = centers[labels] + torch.randn(N_DATA, IN_DIM)

    teacher = MLP(hidden=128, feat=64).eval()
    student = MLP(hidden=24, feat=16)
    crd = CRDLoss(s_dim=16, t_dim=64, feat_dim=12, n_data=N_DATA)
    params = list(student.parameters()) + list(crd.parameters())
    optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=5e-4)

    for epoch in range(epochs):
        perm = torch.randperm(N_DATA)
        for start in range(0, N_DATA, BATCH):
            idx = perm[start:start + BATCH]
            x, y = inputs[idx], labels[idx]
            with torch.no_grad():
                f_t, t_logits = teacher(x)
            f_s, s_logits = student(x)
            ce = F.cross_entropy(s_logits, y)
            kd = kd_loss(s_logits, t_logits)
            contrast = crd(f_s, f_t, idx)
            loss = ce + 0.9 * kd + 0.8 * contrast
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {start // BATCH}: ce {ce.item():.4f} kd {kd.item():.4f} "
                  f"crd {contrast.item():.4f}")
    checksum = sum(p.sum().item() for p in student.parameters())
    print(f"student checksum {checksum:.4f}")


if __name__ == "__main__":
    train()
