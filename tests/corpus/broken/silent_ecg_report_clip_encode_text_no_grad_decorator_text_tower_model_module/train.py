"""Pretrains ECGReportCLIP on synthetic ECG / report pairs: three rhythm classes, each with
its own waveform signature and its own report vocabulary."""
import torch
import torch.nn.functional as F

from model import ECGReportCLIP

torch.manual_seed(0)
LEADS, LENGTH, REPORT_LEN, BATCH, STEPS = 12, 64, 6, 16, 6
VOCAB_BY_CLASS = [list(range(1, 10)), list(range(10, 20)), list(range(20, 30))]


def sample_pairs(n):
    rhythm = torch.randint(0, 3, (n,))
    t = torch.linspace(0, 1, LENGTH)
    rate = torch.tensor([6.0, 11.0, 3.0])[rhythm]
    ecg = torch.sin(2 * torch.pi * rate[:, None, None] * t) * torch.rand(n, LEADS, 1)
    ecg = ecg + 0.1 * torch.randn(n, LEADS, LENGTH)
    reports = torch.stack([
        torch.tensor(VOCAB_BY_CLASS[int(r)])[torch.randint(0, len(VOCAB_BY_CLASS[int(r)]), (REPORT_LEN,))]
        for r in rhythm])
    return ecg, reports


def clip_loss(logits):
    labels = torch.arange(logits.shape[0])
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


def train(model, steps=STEPS):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    for step in range(steps):
        ecg, reports = sample_pairs(BATCH)
        loss = clip_loss(model(ecg, reports))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} info-nce {loss.item():.4f} scale {model.logit_scale.exp().item():.3f}")


model = ECGReportCLIP(leads=LEADS)
train(model)
print(f"text tower checksum {sum(p.sum() for p in model.text_tower.parameters()).item():.4f}")
