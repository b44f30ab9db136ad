"""Data-free-style distillation on an unlabeled transfer set: the student only matches the
teacher's softened outputs, with a learnable distillation temperature (as in curriculum /
learnable-temperature KD). Per-batch confidence statistics are collected for the run report."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, N_CLASSES, BATCH = 24, 8, 32


def forward_with_metrics(model, x, stats):
    logits = model(x).detach()
    probs = F.softmax(logits, dim=1)
    stats.setdefault("confidence", []).append(probs.max(1).values.mean().item())
    stats.setdefault("entropy", []).append(-(probs * probs.log()).sum(1).mean().item())
    return logits


def kd_loss(s_logits, t_logits, tau):
    log_p_s = F.log_softmax(s_logits / tau, dim=1)
    p_t = F.softmax(t_logits / tau, dim=1)
    return F.kl_div(log_p_s, p_t, reduction="batchmean") * tau ** 2


def train(steps=6):
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(IN_DIM, 128), nn.GELU(), nn.Linear(128, N_CLASSES)).eval()
    student = nn.Sequential(nn.Linear(IN_DIM, 20), nn.GELU(), nn.Linear(20, N_CLASSES))
    log_tau = nn.Parameter(torch.tensor(math.log(4.0)))
    optimizer = torch.optim.Adam([{"params": student.parameters()},
                                  {"params": [log_tau], "lr": 1e-2}], lr=3e-3)
    transfer_set = torch.randn(BATCH * steps, IN_DIM)
    stats = {}
    for step, x in enumerate(transfer_set.split(BATCH)):
        with torch.no_grad():
            t_logits = teacher(x)
        s_logits = forward_with_metrics(student, x, stats)
        tau = log_tau.exp()
        loss = kd_loss(s_logits, t_logits, tau)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: kd {loss.item():.4f} tau {tau.item():.3f} "
              f"student confidence {stats['confidence'][-1]:.3f}")
    return student, stats


if __name__ == "__main__":
    student, stats = train()
    print(f"mean entropy {sum(stats['entropy']) / len(stats['entropy']):.4f}")
