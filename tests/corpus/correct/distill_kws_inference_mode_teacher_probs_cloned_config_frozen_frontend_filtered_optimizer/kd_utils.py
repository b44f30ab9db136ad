"""Distillation helpers for the keyword-spotting student."""
import torch
import torch.nn.functional as F


@torch.inference_mode()
def teacher_soft_targets(teacher, wav_feats, temperature):
    """Teacher probabilities at temperature T. Returns inference tensors: callers that use
    them in a loss must .clone() them outside inference mode first."""
    return F.softmax(teacher(wav_feats) / temperature, dim=-1)


def kd_loss(student_logits, soft_targets, temperature):
    log_p = F.log_softmax(student_logits / temperature, dim=-1)
    return F.kl_div(log_p, soft_targets, reduction="batchmean") * temperature ** 2


def apply_max_norm(linear, max_norm=1.5):
    """Max-norm constraint on the classifier rows, applied after the optimizer step."""
    norms = linear.weight.data.norm(dim=1, keepdim=True).clamp(min=max_norm)
    linear.weight.data.mul_(max_norm / norms)
