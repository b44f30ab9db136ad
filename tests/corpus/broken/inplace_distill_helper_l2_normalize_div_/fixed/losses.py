"""Loss helpers shared by the distillation experiments."""
import torch.nn.functional as F


def l2_normalize_(feat, eps=1e-6):
    """Scale every row to unit length."""
    return feat / (feat.norm(dim=1, keepdim=True) + eps)


def feature_kd_loss(student_feat, teacher_feat):
    """Cosine-style feature matching between L2-normalised embeddings."""
    s = l2_normalize_(student_feat)
    t = l2_normalize_(teacher_feat)
    return (s - t).pow(2).sum(dim=1).mean()


def soft_target_loss(student_logits, teacher_logits, temperature=4.0):
    log_p = F.log_softmax(student_logits / temperature, dim=1)
    q = F.softmax(teacher_logits / temperature, dim=1)
    return F.kl_div(log_p, q, reduction="batchmean") * temperature ** 2
