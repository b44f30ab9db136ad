"""Knowledge distillation trainer: a small char-CNN student learns from a frozen teacher."""
import torch
import torch.nn.functional as F


class DistillTrainer:
    def __init__(self, student, teacher, temperature=3.0, alpha=0.7, lr=3e-3):
        self.student = student
        self.teacher = teacher.eval().requires_grad_(False)
        self.T = temperature
        self.alpha = alpha
        self.optimizer = torch.optim.Adam(student.parameters(), lr=lr)
        self.history = []

    def distill_loss(self, student_logits, teacher_logits):
        """Soft-target term, scaled by T^2 so its gradients match the hard-label term."""
        kd = F.kl_div(F.log_softmax(student_logits / self.T, dim=1),
                      F.softmax(teacher_logits / self.T, dim=1),
                      reduction="batchmean") * self.T ** 2
        return kd

    def training_step(self, urls, labels):
        self.student.train()
        self.optimizer.zero_grad()
        student_logits = self.student(urls)
        with torch.no_grad():
            teacher_logits = self.teacher(urls)
        kd = self.distill_loss(student_logits, teacher_logits)
        task = F.cross_entropy(student_logits, labels)
        (self.alpha * kd + (1 - self.alpha) * task).backward()
        self.optimizer.step()
        self.history.append((kd.item(), task.item()))

    def fit(self, urls, labels, epochs=2, batch=32):
        for epoch in range(epochs):
            for start in range(0, len(urls), batch):
                self.training_step(urls[start:start + batch], labels[start:start + batch])
            kd, task = self.history[-1]
            print(f"epoch {epoch} kd {kd:.4f} ce {task:.4f}")
