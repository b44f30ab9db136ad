"""Unsupervised anomaly detection on pump telemetry (vibration, temperature, current):
an LSTM autoencoder is fit on normal 20-step windows; windows whose reconstruction error
exceeds the 95th percentile of the validation errors are flagged."""
import numpy as np
import torch
import torch.nn.functional as F

from model import LSTMAutoencoder

torch.manual_seed(0)
N_SENSORS, WINDOW = 3, 20


def telemetry(n, anomalous_frac=0.0, gen=None):
    t = torch.arange(WINDOW, dtype=torch.float32)
    phase = torch.rand(n, 1, generator=gen) * 6.28
    vib = torch.sin(0.6 * t + phase)
    temp = (0.5 + 0.02 * t).expand(n, WINDOW)
    current = 0.8 * torch.cos(0.6 * t + phase)
    x = torch.stack([vib, temp, current], dim=-1)
    x = x + 0.05 * torch.randn(x.shape, generator=gen)
    labels = torch.rand(n, generator=gen) < anomalous_frac
    spike_at = torch.randint(0, WINDOW - 4, (n,), generator=gen)
    for i in torch.nonzero(labels).flatten().tolist():
        x[i, spike_at[i]:spike_at[i] + 4, 0] += 2.5  # bearing knock
    return x, labels


class AnomalyTrainer:
    def __init__(self, model, lr=5e-3, batch=32):
        self.model = model
        self.batch = batch
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.threshold = None

    def fit(self, windows, epochs):
        for epoch in range(epochs):
            self.model.train()
            perm = torch.randperm(len(windows))
            for i in range(0, len(windows), self.batch):
                x = windows[perm[i:i + self.batch]]
                loss = F.mse_loss(self.model(x), x)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch} reconstruction mse {loss.item():.4f}")

    def errors(self, windows):
        self.model.eval()
        with torch.no_grad():
            recon = self.model(windows)
        return (recon - windows).pow(2).mean(dim=(1, 2)).numpy()

    def calibrate(self, val_windows, q=95):
        self.threshold = float(np.percentile(self.errors(val_windows), q))

    def detect(self, windows):
        return self.errors(windows) > self.threshold


def main():
    gen = torch.Generator().manual_seed(0)
    train_x, _ = telemetry(96, gen=gen)
    val_x, _ = telemetry(32, gen=gen)
    test_x, test_y = telemetry(48, anomalous_frac=0.25, gen=gen)
    trainer = AnomalyTrainer(LSTMAutoencoder(N_SENSORS))
    trainer.fit(train_x, epochs=2)
    trainer.calibrate(val_x)
    flagged = trainer.detect(test_x)
    truth = test_y.numpy()
    recall = (flagged & truth).sum() / max(truth.sum(), 1)
    print(f"threshold {trainer.threshold:.4f} flagged {int(flagged.sum())} recall {recall:.2f}")


if __name__ == "__main__":
    main()
