"""Precipitation/temperature nowcasting on a synthetic 10x10 grid: two fields (rain rate and
temperature anomaly) are advected by a constant wind. A ConvGRU assimilates each observed
frame and forecasts the next one. The long record is cut into windows and trained window by
window, each window starting from the analysis of the previous one (see cycling.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from cycling import CycleState, reset, run_window

GRID, FIELDS, HIDDEN, WINDOW, N_WINDOWS, MEMBERS = 10, 2, 8, 5, 4, 3


class ConvGRUNowcaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Conv2d(FIELDS, HIDDEN, 3, padding=1)
        self.gates = nn.Conv2d(2 * HIDDEN, 2 * HIDDEN, 3, padding=1)
        self.cand = nn.Conv2d(2 * HIDDEN, HIDDEN, 3, padding=1)
        self.head = nn.Conv2d(HIDDEN, FIELDS, 1)

    def initial_state(self, batch):
        return torch.zeros(batch, HIDDEN, GRID, GRID)

    def assimilate(self, obs, h):
        x = torch.tanh(self.embed(obs))
        z, r = torch.sigmoid(self.gates(torch.cat([x, h], 1))).chunk(2, 1)
        n = torch.tanh(self.cand(torch.cat([x, r * h], 1)))
        return (1 - z) * h + z * n

    def forecast(self, h):
        return self.head(h)


def synthetic_record(n_frames, members):
    yy, xx = torch.meshgrid(torch.arange(GRID).float(), torch.arange(GRID).float(), indexing="ij")
    cy, cx = torch.rand(members) * GRID, torch.rand(members) * GRID
    wind = torch.randn(members, 2) * 0.6
    frames = []
    for t in range(n_frames):
        py, px = (cy + wind[:, 0] * t) % GRID, (cx + wind[:, 1] * t) % GRID
        d2 = (yy - py[:, None, None]) ** 2 + (xx - px[:, None, None]) ** 2
        rain = torch.exp(-d2 / 6.0)
        temp = 0.5 * torch.sin(xx / 3.0 + 0.2 * t) - 0.8 * rain
        frames.append(torch.stack([rain, temp], 1))
    return torch.stack(frames)  # (T, B, C, H, W)


def main():
    torch.manual_seed(0)
    record = synthetic_record(N_WINDOWS * (WINDOW - 1) + 1, MEMBERS)
    model = ConvGRUNowcaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=4e-3)
    state = CycleState()
    for epoch in range(2):
        reset(state)
        for w in range(N_WINDOWS):
            start = w * (WINDOW - 1)
            window = record[start:start + WINDOW]
            forecasts = run_window(model, state, window)
            loss = F.mse_loss(forecasts, window[1:])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            state.window_rmse.append(loss.item() ** 0.5)
            print(f"epoch {epoch} window {w} rmse {state.window_rmse[-1]:.4f}")


if __name__ == "__main__":
    main()
