"""Unsupervised anomaly detection on machine sensor readings: an autoencoder is trained on
(mostly) normal readings, and the alarm threshold is set at the 95th percentile of the
per-sample reconstruction errors seen during training. Held-out readings above the
threshold are flagged."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_SENSORS, CODE, BATCH, EPOCHS = 12, 3, 32, 3


def normal_readings(n):
    load = torch.randn(n, CODE)
    mixing = torch.linspace(-1, 1, CODE * N_SENSORS).reshape(CODE, N_SENSORS).sin()
    return load @ mixing + 0.05 * torch.randn(n, N_SENSORS)


train_x = normal_readings(128)
test_x = torch.cat([normal_readings(20), 3 * torch.randn(4, N_SENSORS)])
test_is_fault = torch.cat([torch.zeros(20), torch.ones(4)]).bool()

autoencoder = nn.Sequential(
    nn.Linear(N_SENSORS, 8), nn.Tanh(), nn.Linear(8, CODE),
    nn.Linear(CODE, 8), nn.Tanh(), nn.Linear(8, N_SENSORS))
optimizer = torch.optim.Adam(autoencoder.parameters(), lr=5e-3)

train_errors = []
for epoch in range(EPOCHS):
    perm = torch.randperm(len(train_x))
    for start in range(0, len(train_x), BATCH):
        x = train_x[perm[start:start + BATCH]]
        per_sample = (autoencoder(x) - x).pow(2).mean(1)
        loss = per_sample.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_errors.append(per_sample)
    print(f"epoch {epoch} reconstruction mse {loss.item():.5f}")

threshold = torch.quantile(torch.cat(train_errors[-len(train_x) // BATCH:]), 0.95)
with torch.no_grad():
    test_err = (autoencoder(test_x) - test_x).pow(2).mean(1)
flagged = test_err > threshold
print(f"threshold {threshold.item():.5f}")
print(f"flagged {int(flagged.sum())} of {len(test_x)}, faults caught {int((flagged & test_is_fault).sum())}/4")
