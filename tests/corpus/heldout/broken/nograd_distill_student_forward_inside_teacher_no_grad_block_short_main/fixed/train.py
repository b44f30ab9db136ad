"""Distil a 1-D CNN teacher into a thin student for keyword-style sequence classification on
synthetic waveforms, with mixup-like noise augmentation shared by both networks. A 5-step
main() used as a smoke test before the long run."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, LENGTH, TEMPERATURE, ALPHA = 4, 64, 4.0, 0.8


def conv_net(width):
    return nn.Sequential(
        nn.Conv1d(1, width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
        nn.Conv1d(width, width, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        nn.Flatten(), nn.Linear(width, N_CLASSES))


def make_batch(batch=16):
    labels = torch.randint(0, N_CLASSES, (batch,))
    t = torch.linspace(0, 1, LENGTH)
    waves = torch.sin(2 * torch.pi * (labels[:, None] + 2) * t) + 0.3 * torch.randn(batch, LENGTH)
    return waves.unsqueeze(1), labels


def distillation_loss(s_logits, t_logits, labels):
    soft = F.kl_div(F.log_softmax(s_logits / TEMPERATURE, 1), F.softmax(t_logits / TEMPERATURE, 1),
                    reduction="batchmean") * TEMPERATURE ** 2
    return ALPHA * soft + (1 - ALPHA) * F.cross_entropy(s_logits, labels)


def main(steps=5):
    torch.manual_seed(0)
    teacher = conv_net(32).eval()
    student = conv_net(8)
    optimizer = torch.optim.AdamW(student.parameters(), lr=2e-3)
    for step in range(steps):
        x, y = make_batch()
        x_aug = x + 0.05 * torch.randn_like(x)
        with torch.no_grad():
            t_logits = teacher(x_aug)
        s_logits = student(x_aug)
        loss = distillation_loss(s_logits, t_logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")
    return student


if __name__ == "__main__":
    main()
