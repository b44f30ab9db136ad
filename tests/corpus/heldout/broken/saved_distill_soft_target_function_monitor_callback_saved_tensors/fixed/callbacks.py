"""Trainer callbacks: gradient-norm logging and a monitor of how soft the student's
distribution is compared with the teacher's targets."""
import math


class Callback:
    def on_before_backward(self, trainer, outputs):
        pass

    def on_after_backward(self, trainer, outputs):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


def entropy(p):
    return -(p * p.clamp_min(1e-8).log()).sum(1).mean().item()


class KDMonitor(Callback):
    """Reads the distributions the KD loss kept for its backward, so nothing is recomputed."""

    def __init__(self):
        self.student, self.teacher = [], []

    def on_before_backward(self, trainer, outputs):
        p_s, p_t = outputs["kd"].grad_fn.saved_tensors
        self.student.append(entropy(p_s))
        self.teacher.append(entropy(p_t))

    def on_epoch_end(self, trainer, epoch):
        n = len(self.student)
        print(f"  kd monitor: student entropy {sum(self.student) / n:.4f} "
              f"teacher entropy {sum(self.teacher) / n:.4f}")
        self.student, self.teacher = [], []


class GradNormLogger(Callback):
    def __init__(self):
        self.norms = []

    def on_after_backward(self, trainer, outputs):
        total = sum(p.grad.pow(2).sum().item() for p in trainer.student.parameters()
                    if p.grad is not None)
        self.norms.append(math.sqrt(total))

    def on_epoch_end(self, trainer, epoch):
        print(f"  grad norm: max {max(self.norms):.4f}")
        self.norms = []
