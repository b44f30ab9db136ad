"""Truncated BPTT for a streaming LSTMCell forecaster. The recurrent state (h, c) lives in a
closure (nonlocal) and is carried across chunks of one long series; gradients flow through
every time step inside a chunk and the state is detached at each chunk boundary. The state
is reset at the start of every epoch, and a no_grad warm-start forecast follows training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SENSORS, HIDDEN, CHUNK, N_CHUNKS = 3, 16, 5, 4


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(N_SENSORS, HIDDEN)
        self.head = nn.Linear(HIDDEN, N_SENSORS)


def make_tbptt_step(model, optimizer, batch):
    h = c = None

    def reset():
        nonlocal h, c
        h, c = torch.zeros(batch, HIDDEN), torch.zeros(batch, HIDDEN)

    def step(x_chunk, y_chunk):
        nonlocal h, c
        h, c = h.detach(), c.detach()
        preds = []
        for t in range(x_chunk.size(1)):
            h, c = model.cell(x_chunk[:, t], (h, c))
            preds.append(model.head(h))
        loss = F.mse_loss(torch.stack(preds, dim=1), y_chunk)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        return loss.item()

    def state():
        return h, c

    return reset, step, state


def synthetic_series(batch, length):
    t = torch.arange(length, dtype=torch.float32)
    phase = torch.rand(batch, 1, N_SENSORS) * 6.28
    return torch.sin(0.3 * t[None, :, None] + phase) + 0.05 * torch.randn(batch, length, N_SENSORS)


def main():
    torch.manual_seed(0)
    batch = 4
    series = synthetic_series(batch, N_CHUNKS * CHUNK + 1)
    model = Forecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    reset, step, state = make_tbptt_step(model, optimizer, batch)
    for epoch in range(2):
        reset()
        running = 0.0
        for k in range(N_CHUNKS):
            x = series[:, k * CHUNK:(k + 1) * CHUNK]
            y = series[:, k * CHUNK + 1:(k + 1) * CHUNK + 1]
            mse = step(x, y)
            running += mse
            print(f"epoch {epoch} chunk {k} mse {mse:.6f}")
        print(f"epoch {epoch} mean mse {running / N_CHUNKS:.6f}")
    with torch.no_grad():
        h, c = state()
        forecast = model.head(model.cell(series[:, -1], (h, c))[0])
    print(f"warm-start forecast mean {forecast.mean().item():.6f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
