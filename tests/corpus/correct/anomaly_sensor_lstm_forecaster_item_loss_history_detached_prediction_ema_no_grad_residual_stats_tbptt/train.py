"""Forecast-based anomaly detection on a long sensor stream: an LSTM predicts the next
reading, and large residuals raise alarms. The detector keeps a lot of state between steps
(loss history, an EMA of its predictions, residual statistics, the LSTM state across
windows); all of it is stored without autograd history."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

WINDOW, N_WINDOWS, N_STREAMS, HIDDEN = 16, 8, 4, 24


class NextReading(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, 1)

    def forward(self, x, state=None):
        out, state = self.lstm(x.unsqueeze(-1), state)
        return self.head(out).squeeze(-1), state


@dataclass
class DetectorState:
    momentum: float = 0.9
    loss_history: list = field(default_factory=list)
    pred_ema: torch.Tensor = field(default_factory=lambda: torch.zeros(N_STREAMS))
    res_mean: torch.Tensor = field(default_factory=lambda: torch.zeros(()))
    res_var: torch.Tensor = field(default_factory=lambda: torch.full((), 0.1))
    window_total: torch.Tensor = field(default_factory=lambda: torch.zeros(()))

    def observe(self, loss, pred, residuals):
        self.loss_history.append(loss.item())
        self.window_total += loss.detach()
        self.pred_ema = self.momentum * self.pred_ema + (1 - self.momentum) * pred.detach()[:, -1]
        with torch.no_grad():
            m = self.momentum
            self.res_mean.mul_(m).add_((1 - m) * residuals.mean())
            self.res_var.mul_(m).add_((1 - m) * (residuals - self.res_mean).pow(2).mean())

    def alarms(self, residuals, k=3.0):
        limit = self.res_mean + k * self.res_var.sqrt()
        return (residuals.detach().abs() > limit).sum().item()

    def plateaued(self, w=2):
        if len(self.loss_history) < 2 * w:
            return False
        return sum(self.loss_history[-w:]) >= 0.999 * sum(self.loss_history[-2 * w:-w])


def sensor_stream(gen):
    t = torch.arange(WINDOW * N_WINDOWS + 1).float()
    phase = torch.rand(N_STREAMS, 1, generator=gen) * 6.28
    x = torch.sin(t / 5 + phase) + 0.3 * torch.sin(t / 1.7) + 0.05 * torch.randn(N_STREAMS, len(t), generator=gen)
    x[1, 70:73] += 2.0  # a spike on stream 1
    return x


torch.manual_seed(0)
gen = torch.Generator().manual_seed(6)
model = NextReading()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
stream = sensor_stream(gen)
det = DetectorState()
state = None
for w in range(N_WINDOWS):
    seg = stream[:, w * WINDOW:(w + 1) * WINDOW + 1]
    if state is not None:
        state = tuple(s.detach() for s in state)  # truncated BPTT across windows
    pred, state = model(seg[:, :-1], state)
    residuals = pred - seg[:, 1:]
    loss = residuals.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    det.observe(loss, pred, residuals)
    if det.plateaued():
        for group in optimizer.param_groups:
            group["lr"] *= 0.5
    print(f"window {w} loss {det.loss_history[-1]:.4f} alarms {det.alarms(residuals)} "
          f"pred ema {det.pred_ema.mean().item():+.3f} lr {optimizer.param_groups[0]['lr']:.4g}")

print(f"mean window loss {(det.window_total / N_WINDOWS).item():.4f}")
checksum = sum(p.detach().double().sum().item() for p in model.parameters())
print(f"param checksum {checksum:.6f}")
