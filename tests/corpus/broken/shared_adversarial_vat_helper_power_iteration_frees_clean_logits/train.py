"""Semi-supervised classification of vibration-sensor windows with virtual adversarial
training: cross-entropy on the few labelled windows, plus the VAT smoothness term on every
window of the batch (labelled and unlabelled)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from vat import VATLoss

N_FEATURES, N_CLASSES = 12, 3


class SensorNet(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_FEATURES, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):
        return self.head(self.body(x))


def make_batches(n_batches=6, n_labelled=8, n_unlabelled=40):
    centers = torch.randn(N_CLASSES, N_FEATURES) * 2.0
    batches = []
    for _ in range(n_batches):
        y = torch.randint(0, N_CLASSES, (n_labelled + n_unlabelled,))
        x = centers[y] + torch.randn(len(y), N_FEATURES)
        batches.append((x, y[:n_labelled]))
    return batches


torch.manual_seed(0)
model = SensorNet()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
vat = VATLoss(eps=1.5)
alpha = 1.0

for step, (x_all, y_labelled) in enumerate(make_batches()):
    logits = model(x_all)
    ce = F.cross_entropy(logits[:len(y_labelled)], y_labelled)
    lds = vat(model, x_all, logits)
    loss = ce + alpha * lds
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} ce {ce.item():.4f} lds {lds.item():.4f}")
