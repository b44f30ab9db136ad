"""FitNets-style hint distillation: a thin student regresses the teacher's hidden features
through a small regressor while learning the labels. Training and reporting are closures
built by make_trainer(), sharing the last step's losses through a dict."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, N_CLASSES = 16, 4


class MLP(nn.Module):
    def __init__(self, hidden, feat):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU(), nn.Linear(hidden, feat))
        self.head = nn.Linear(feat, N_CLASSES)

    def forward(self, x):
        feat = F.relu(self.body(x))
        return feat, self.head(feat)


def make_trainer(student, teacher, regressor, alpha=0.5):
    params = list(student.parameters()) + list(regressor.parameters())
    optimizer = torch.optim.Adam(params, lr=3e-3)
    last = {}

    def train_step(x, y):
        with torch.no_grad():
            t_feat, _ = teacher(x)
        s_feat, s_logits = student(x)
        hint = F.mse_loss(regressor(s_feat), t_feat)
        loss = F.cross_entropy(s_logits, y) + alpha * hint
        last["teacher_energy"] = t_feat.pow(2).mean().item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        last["loss"], last["hint"] = loss, hint
        return loss.item()

    def report(step):
        rel = last["hint"].item() / last["teacher_energy"]
        print(f"step {step} loss {last['loss'].item():.4f} relative hint error {rel:.3f}")

    return train_step, report


torch.manual_seed(0)
teacher = MLP(hidden=128, feat=32).eval()
student, regressor = MLP(hidden=16, feat=8), nn.Linear(8, 32)
train_step, report = make_trainer(student, teacher, regressor)
w_true = torch.randn(IN_DIM, N_CLASSES)
for step in range(6):
    x = torch.randn(48, IN_DIM)
    train_step(x, (x @ w_true).argmax(dim=1))
    if step % 2 == 1:
        report(step)
