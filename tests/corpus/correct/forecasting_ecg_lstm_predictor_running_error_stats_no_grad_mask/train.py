"""Prediction-based anomaly detection on ECG-like traces: an LSTM predicts the next
sample, and a tracker keeps running mean/variance of the prediction error (tensors updated
in place under no_grad). Points whose error exceeds mean + 3 std are treated as suspected
anomalies and left out of the loss. The LSTM state is carried across windows of one
recording and its history is cut at every window."""
import torch
import torch.nn as nn

LEADS, LENGTH, WINDOW, EPOCHS = 2, 240, 30, 2


def ecg_like(gen):
    t = torch.arange(LENGTH, dtype=torch.float32)
    beat = torch.exp(-((t % 40) - 20) ** 2 / 6.0) - 0.3 * torch.exp(-((t % 40) - 26) ** 2 / 10.0)
    signal = torch.stack([beat, 0.7 * beat.roll(2)], dim=-1)
    signal = signal + 0.03 * torch.randn(LENGTH, LEADS, generator=gen)
    signal[150:156] += 1.5  # an artefact the model should not fit
    return signal.unsqueeze(0)


class ErrorTracker:
    def __init__(self, dims, momentum=0.1):
        self.mean = torch.zeros(dims)
        self.var = torch.full((dims,), 0.01)
        self.momentum = momentum

    @torch.no_grad()
    def update(self, err):
        flat = err.reshape(-1, err.size(-1))
        self.mean.mul_(1 - self.momentum).add_(self.momentum * flat.mean(0))
        self.var.mul_(1 - self.momentum).add_(self.momentum * flat.var(0))

    def threshold(self, k=3.0):
        return self.mean + k * self.var.sqrt()


class NextSamplePredictor(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.lstm = nn.LSTM(LEADS, hidden, batch_first=True)
        self.out = nn.Linear(hidden, LEADS)

    def forward(self, x, hidden=None):
        y, hidden = self.lstm(x, hidden)
        return self.out(y), hidden


def repackage(hidden):
    return tuple(h.detach() for h in hidden)


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    series = ecg_like(gen)
    model = NextSamplePredictor()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    tracker = ErrorTracker(LEADS)
    for epoch in range(EPOCHS):
        hidden, flagged, losses = None, 0, []
        for start in range(0, LENGTH - WINDOW - 1, WINDOW):
            x = series[:, start:start + WINDOW]
            y = series[:, start + 1:start + WINDOW + 1]
            if hidden is not None:
                hidden = repackage(hidden)
            pred, hidden = model(x, hidden)
            err = (pred - y).abs()
            suspect = err > tracker.threshold()
            loss = (err.pow(2) * (~suspect)).sum() / (~suspect).sum().clamp(min=1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            tracker.update(err)
            flagged += suspect.any(dim=-1).sum().item()
            losses.append(loss.item())
        print(f"epoch {epoch} windows {len(losses)} loss {sum(losses) / len(losses):.5f} "
              f"flagged points {flagged} err mean {tracker.mean.sum().item():.4f}")
    checksum = sum(p.detach().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")
    return tracker


if __name__ == "__main__":
    train()
