"""Distillation losses. The KL term is evaluated in float64 NumPy because the float32
version underflowed for very confident teachers at low temperature."""
import numpy as np
import torch


def _log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def soft_kl(student_logits, teacher_logits, temperature):
    """KL(teacher || student) on temperature-softened distributions, times T^2."""
    log_q = _log_softmax(teacher_logits.cpu().numpy().astype(np.float64) / temperature)
    log_p = _log_softmax(student_logits.detach().cpu().numpy().astype(np.float64) / temperature)
    per_row = (np.exp(log_q) * (log_q - log_p)).sum(axis=1)
    kl = torch.tensor(per_row.mean() * temperature ** 2, dtype=torch.float32)
    return kl


def agreement(student_logits, teacher_logits):
    return (student_logits.argmax(1) == teacher_logits.argmax(1)).float().mean().item()
