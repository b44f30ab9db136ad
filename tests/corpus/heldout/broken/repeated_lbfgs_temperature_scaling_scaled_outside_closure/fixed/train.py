"""Credit-default classifier on synthetic tabular data, followed by post-hoc temperature
scaling on a held-out split (Guo et al., 2017): a single temperature is fitted with L-BFGS
to minimise the validation NLL of the frozen classifier's logits."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES = 8
torch.manual_seed(0)


def make_applicants(n):
    x = torch.randn(n, N_FEATURES)
    score = 1.5 * x[:, 0] - 2.0 * x[:, 1] + x[:, 2] * x[:, 3]
    y = (score + 0.8 * torch.randn(n) > 0).long()
    return x, y


class TemperatureScaler(nn.Module):
    def __init__(self, init=1.0):
        super().__init__()
        self.temperature = nn.Parameter(torch.tensor([init]))

    def forward(self, logits):
        return logits / self.temperature


def fit_classifier(model, x, y, epochs=4):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"classifier epoch {epoch} nll {loss.item():.4f}")


def calibrate(scaler, logits, labels):
    optimizer = torch.optim.LBFGS(scaler.parameters(), lr=0.1, max_iter=10)

    def closure():
        optimizer.zero_grad()
        loss = F.cross_entropy(scaler(logits), labels)
        loss.backward()
        return loss

    for rnd in range(3):
        nll = optimizer.step(closure)
        print(f"lbfgs round {rnd} nll {nll.item():.4f} T {scaler.temperature.item():.4f}")
    return scaler.temperature.item()


x_train, y_train = make_applicants(256)
x_val, y_val = make_applicants(128)
model = nn.Sequential(nn.Linear(N_FEATURES, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
fit_classifier(model, x_train, y_train)
with torch.no_grad():
    val_logits = 4.0 * model(x_val)  # an over-confident model
print(f"val nll before {F.cross_entropy(val_logits, y_val).item():.4f}")
scaler = TemperatureScaler()
temperature = calibrate(scaler, val_logits, y_val)
with torch.no_grad():
    print(f"temperature {temperature:.4f} val nll after {F.cross_entropy(scaler(val_logits), y_val).item():.4f}")
