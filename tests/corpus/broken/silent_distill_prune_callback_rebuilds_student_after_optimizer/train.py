"""Prune-then-distill: the student is channel-pruned when fit() starts and then recovers
accuracy by distilling from the wide teacher (KL on softened logits + cross-entropy)."""
import torch
import torch.nn.functional as F

from callbacks import LossLogger, PruneBeforeFit
from nets import conv_net

N_CLASSES, SIZE, T = 5, 8, 2.0


def glyph_batch(n=20):
    y = torch.randint(0, N_CLASSES, (n,))
    x = 0.3 * torch.randn(n, 1, SIZE, SIZE)
    for i, k in enumerate(y.tolist()):
        x[i, 0, k, :] += 1.0  # class k lights up row k
    return x, y


class DistillTrainer:
    def __init__(self, teacher, student, callbacks, lr=5e-3, alpha=0.7):
        self.teacher = teacher.eval().requires_grad_(False)
        self.student = student
        self.callbacks = callbacks
        self.alpha = alpha
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=lr)

    def _emit(self, hook, *args):
        for cb in self.callbacks:
            if hasattr(cb, hook):
                getattr(cb, hook)(self, *args)

    def training_step(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        kd = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1),
                      reduction="batchmean") * T * T
        ce = F.cross_entropy(s_logits, y)
        return {"kd": kd, "ce": ce}

    def fit(self, steps):
        self._emit("on_fit_start")
        self.student.train()
        for step in range(steps):
            x, y = glyph_batch()
            losses = self.training_step(x, y)
            loss = self.alpha * losses["kd"] + (1 - self.alpha) * losses["ce"]
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self._emit("on_step_end", step, {k: v.item() for k, v in losses.items()})


torch.manual_seed(0)
teacher = conv_net(32, N_CLASSES)  # stands in for the trained wide model
student = conv_net(16, N_CLASSES)
trainer = DistillTrainer(teacher, student, [PruneBeforeFit(keep=0.5), LossLogger()])
trainer.fit(steps=6)
print("checksum", round(sum(p.sum().item() for p in trainer.student.parameters()), 4))
