"""Streaming load forecaster: an LSTMCell reads a long multivariate sensor series chunk by
chunk and predicts the next reading at every time step. The recurrent state lives in a
closure so that the training step can be handed to a scheduler as a plain callable."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SENSORS, HIDDEN, CHUNK = 3, 16, 6


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(N_SENSORS, HIDDEN)
        self.head = nn.Linear(HIDDEN, N_SENSORS)


def make_stream_step(model, optimizer, batch):
    h = c = None

    def step(x_chunk, y_chunk):
        nonlocal h, c
        if h is None:
            h = torch.zeros(batch, HIDDEN)
            c = torch.zeros(batch, HIDDEN)
        preds = []
        for t in range(x_chunk.size(1)):
            h, c = model.cell(x_chunk[:, t], (h, c))
            preds.append(model.head(h))
        loss = F.mse_loss(torch.stack(preds, dim=1), y_chunk)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()

    return step


def synthetic_series(batch, length):
    t = torch.arange(length, dtype=torch.float32)
    phase = torch.rand(batch, 1, N_SENSORS) * 6.28
    return torch.sin(0.3 * t[None, :, None] + phase) + 0.05 * torch.randn(batch, length, N_SENSORS)


def main():
    torch.manual_seed(0)
    batch = 4
    series = synthetic_series(batch, 3 * CHUNK + 1)
    model = Forecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    step = make_stream_step(model, optimizer, batch)
    for k in range(3):
        x = series[:, k * CHUNK:(k + 1) * CHUNK]
        y = series[:, k * CHUNK + 1:(k + 1) * CHUNK + 1]
        print(f"chunk {k} mse {step(x, y):.4f}")


if __name__ == "__main__":
    main()
