"""Mean-teacher utilities: the teacher is a frozen copy of the student whose weights track
an exponential moving average of the student's."""
import copy

import torch


def make_teacher(student):
    teacher = copy.copy(student)
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher


@torch.no_grad()
def update_teacher(teacher, student, decay=0.99):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s, alpha=1 - decay)
    for t, s in zip(teacher.buffers(), student.buffers()):
        t.copy_(s)


def sigmoid_rampup(step, length):
    """Consistency weight schedule from the mean-teacher paper."""
    if length == 0:
        return 1.0
    phase = 1.0 - min(step, length) / length
    return float(torch.exp(torch.tensor(-5.0 * phase * phase)))
