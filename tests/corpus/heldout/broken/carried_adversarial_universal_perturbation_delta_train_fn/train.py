"""Universal adversarial training on a toy 8x8 glyph dataset.

One perturbation `delta` is shared by every image. Each step the classifier
descends on the perturbed batch and the perturbation ascends (sign of its
gradient) and is projected back into the L-inf ball, as in Shafahi et al.,
"Universal Adversarial Training".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

EPS = 0.3
DELTA_STEP = 0.05
N_CLASSES = 4


class GlyphNet(nn.Module):
    def __init__(self, n_classes=N_CLASSES):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 2 * 2, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def make_glyphs(n_batches, batch_size=16):
    """Each class is a bright bar in a different position, plus noise."""
    g = torch.Generator().manual_seed(7)
    batches = []
    for _ in range(n_batches):
        y = torch.randint(0, N_CLASSES, (batch_size,), generator=g)
        x = 0.1 * torch.rand(batch_size, 1, 8, 8, generator=g)
        for i, label in enumerate(y.tolist()):
            x[i, 0, 2 * label:2 * label + 2, :] += 0.8
        batches.append((x.clamp(0, 1), y))
    return batches


def train(model, batches, epochs=2):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    delta = torch.zeros(1, 1, 8, 8, requires_grad=True)
    for epoch in range(epochs):
        correct, seen = 0, 0
        for x, y in batches:
            logits = model((x + delta).clamp(0, 1))
            loss = F.cross_entropy(logits, y)

            opt.zero_grad()
            delta.retain_grad()
            loss.backward()
            opt.step()

            # ascend on the shared perturbation and project onto the eps-ball
            delta = (delta + DELTA_STEP * delta.grad.sign()).clamp(-EPS, EPS)

            correct += (logits.argmax(1) == y).sum().item()
            seen += len(y)
        print(f"epoch {epoch} robust-acc {correct / seen:.3f} "
              f"|delta|_inf {delta.abs().max().item():.3f}")
    return delta


if __name__ == "__main__":
    torch.manual_seed(0)
    net = GlyphNet()
    final_delta = train(net, make_glyphs(3))
    print("perturbation norm", round(final_delta.norm().item(), 4))
