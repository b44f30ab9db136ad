"""Semi-supervised acoustic scene classification with a mean teacher: a few labelled
log-mel patches, many unlabelled ones, consistency between student and EMA teacher."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ema import make_teacher, sigmoid_rampup, update_teacher

N_MELS, FRAMES, N_SCENES = 16, 24, 3


class SceneCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(16, N_SCENES)

    def forward(self, x):
        return self.classifier(self.features(x))


def augment(x):
    """Additive noise plus a random time shift."""
    shift = int(torch.randint(-3, 4, (1,)))
    return torch.roll(x, shifts=shift, dims=-1) + 0.1 * torch.randn_like(x)


def synth_patches(n, prototypes):
    scenes = torch.randint(0, N_SCENES, (n,))
    return prototypes[scenes] + 0.5 * torch.randn(n, 1, N_MELS, FRAMES), scenes


def main(steps=6):
    torch.manual_seed(0)
    prototypes = torch.randn(N_SCENES, 1, N_MELS, FRAMES)
    student = SceneCNN()
    teacher = make_teacher(student)
    optimizer = torch.optim.Adam(student.parameters(), lr=2e-3)
    for step in range(steps):
        x_lab, y_lab = synth_patches(16, prototypes)
        x_unl, _ = synth_patches(48, prototypes)
        x_all = torch.cat([x_lab, x_unl])
        student_logits = student(augment(x_all))
        with torch.no_grad():
            teacher_probs = F.softmax(teacher(augment(x_all)), dim=1)
        class_loss = F.cross_entropy(student_logits[:16], y_lab)
        consistency = F.mse_loss(F.softmax(student_logits, dim=1), teacher_probs)
        loss = class_loss + 10.0 * sigmoid_rampup(step, 5) * consistency
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        update_teacher(teacher, student)
        print(f"step {step} class {class_loss.item():.4f} consistency {consistency.item():.5f}")


if __name__ == "__main__":
    main()
