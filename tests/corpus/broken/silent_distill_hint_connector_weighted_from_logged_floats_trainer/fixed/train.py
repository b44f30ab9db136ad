"""Knowledge distillation of a small CNN student from a wider teacher on 12x12 glyph
images: hard-label cross-entropy, temperature-scaled KL on the logits, and a FitNets
hint loss that matches the student's feature map (through a 1x1 connector) to the
teacher's."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 5


class ConvNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU())
        self.classifier = nn.Linear(width, N_CLASSES)

    def forward(self, x):
        feat = self.features(x)
        return feat, self.classifier(feat.mean(dim=(2, 3)))


def kd_kl(student_logits, teacher_logits, temperature):
    log_p = F.log_softmax(student_logits / temperature, dim=1)
    q = F.softmax(teacher_logits / temperature, dim=1)
    return F.kl_div(log_p, q, reduction="batchmean") * temperature ** 2


class DistillTrainer:
    def __init__(self, teacher, student, temperature=4.0, aux_weights=None):
        self.teacher = teacher.eval().requires_grad_(False)
        self.student = student
        self.connector = nn.Conv2d(8, 24, kernel_size=1)
        self.temperature = temperature
        self.aux_weights = aux_weights or {"kd": 0.7, "hint": 2.0}
        params = [*student.parameters(), *self.connector.parameters()]
        self.optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9)
        self.log = {}

    def compute_losses(self, x, y):
        with torch.no_grad():
            t_feat, t_logits = self.teacher(x)
        s_feat, s_logits = self.student(x)
        return {
            "ce": F.cross_entropy(s_logits, y),
            "kd": kd_kl(s_logits, t_logits, self.temperature),
            "hint": F.mse_loss(self.connector(s_feat), t_feat),
        }

    def training_step(self, x, y):
        losses = self.compute_losses(x, y)
        self.log = {name: value.item() for name, value in losses.items()}
        total = losses["ce"]
        for name, weight in self.aux_weights.items():
            total = total + weight * losses[name]
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        self.log["total"] = total.item()

    def fit(self, batches):
        for step, (x, y) in enumerate(batches):
            self.training_step(x, y)
            print(f"step {step} " + " ".join(f"{k} {v:.4f}" for k, v in self.log.items()))


def glyph_batches(n_batches, batch_size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    templates = (torch.rand(N_CLASSES, 1, 12, 12, generator=g) > 0.6).float()
    for _ in range(n_batches):
        y = torch.randint(0, N_CLASSES, (batch_size,), generator=g)
        yield templates[y] + 0.3 * torch.randn(batch_size, 1, 12, 12, generator=g), y


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = DistillTrainer(teacher=ConvNet(24), student=ConvNet(8))
    trainer.fit(glyph_batches(6))
