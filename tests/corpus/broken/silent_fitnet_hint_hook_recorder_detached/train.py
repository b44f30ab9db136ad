"""FitNets stage 1 (hint training): the student's convolutional body is trained so that
a 1x1 regressor on its features matches the teacher's hint-layer features. Both feature
maps are read with forward hooks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import FeatureRecorder

torch.manual_seed(0)


def conv_net(widths, classes=4):
    layers, c_in = [], 3
    for w in widths:
        layers += [nn.Conv2d(c_in, w, 3, padding=1), nn.BatchNorm2d(w), nn.ReLU()]
        c_in = w
    net = nn.Module()
    net.features = nn.Sequential(*layers)
    net.classifier = nn.Linear(c_in, classes)
    return net


teacher = conv_net([16, 32, 32])
student = conv_net([8, 8])
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)

teacher_hint = FeatureRecorder(teacher.features)
student_guided = FeatureRecorder(student.features)
regressor = nn.Conv2d(8, 32, kernel_size=1)
optimizer = torch.optim.Adam([*student.features.parameters(), *regressor.parameters()],
                             lr=3e-3)

for step in range(6):
    images = torch.randn(16, 3, 8, 8)
    teacher.features(images)
    student.features(images)
    hint_loss = F.mse_loss(regressor(student_guided.features), teacher_hint.features)
    optimizer.zero_grad()
    hint_loss.backward()
    optimizer.step()
    print(f"step {step} hint loss {hint_loss.item():.4f}")

teacher_hint.remove()
student_guided.remove()
# stage 2 (distillation on the logits, classifier included) starts from these weights
