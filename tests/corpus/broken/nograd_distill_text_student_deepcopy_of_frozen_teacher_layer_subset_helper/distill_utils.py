"""Helpers for task-specific distillation of the review-sentiment encoder."""
import copy

import torch.nn as nn
import torch.nn.functional as F


def init_student_from_teacher(teacher, keep_layers):
    """DistilBERT-style initialisation: the student is the teacher with every other layer
    dropped, so it starts from the teacher's embeddings, kept layers and classifier."""
    student = copy.deepcopy(teacher)
    student.layers = nn.ModuleList(student.layers[i] for i in keep_layers)
    return student


def kd_loss(student_logits, teacher_logits, labels, temperature=2.0, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / temperature, dim=-1),
                    F.softmax(teacher_logits / temperature, dim=-1),
                    reduction="batchmean") * temperature ** 2
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard
