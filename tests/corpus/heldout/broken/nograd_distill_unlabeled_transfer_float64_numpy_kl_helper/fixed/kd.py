"""Distillation losses. The KL term is evaluated in float64 because the float32 version
underflowed for very confident teachers at low temperature."""
import torch
import torch.nn.functional as F


def soft_kl(student_logits, teacher_logits, temperature):
    """KL(teacher || student) on temperature-softened distributions, times T^2."""
    log_q = F.log_softmax(teacher_logits.double() / temperature, dim=1)
    log_p = F.log_softmax(student_logits.double() / temperature, dim=1)
    per_row = (log_q.exp() * (log_q - log_p)).sum(dim=1)
    kl = (per_row.mean() * temperature ** 2).float()
    return kl


def agreement(student_logits, teacher_logits):
    return (student_logits.argmax(1) == teacher_logits.argmax(1)).float().mean().item()
