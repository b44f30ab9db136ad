"""KalmanNet-style sensor filter: a linear state-space model whose Kalman gain is predicted
by a small network from the innovation, trained so that the filtered signal matches the
clean one.  A long sensor stream is processed in windows; the filter's posterior is kept in
a dataclass so that the next window continues from it."""
from dataclasses import dataclass, field
from typing import List, Optional

import torch
import torch.nn as nn

STATE, OBS, WINDOW = 4, 2, 5


@dataclass
class FilterState:
    mean: Optional[torch.Tensor] = None
    steps: int = 0
    window_losses: List[float] = field(default_factory=list)


class LearnedGainFilter(nn.Module):
    def __init__(self):
        super().__init__()
        self.transition = nn.Linear(STATE, STATE, bias=False)
        self.observe = nn.Linear(STATE, OBS, bias=False)
        self.gain_net = nn.Sequential(nn.Linear(OBS + STATE, 16), nn.Tanh(), nn.Linear(16, STATE * OBS))
        with torch.no_grad():
            self.transition.weight.copy_(0.9 * torch.eye(STATE) + 0.05 * torch.randn(STATE, STATE))
            self.gain_net[2].weight.mul_(0.1)

    def step(self, mean, y):
        prior = self.transition(mean)
        y_pred = self.observe(prior)
        innovation = y - y_pred
        gain = self.gain_net(torch.cat([innovation, prior], dim=-1)).view(-1, STATE, OBS)
        posterior = prior + (gain @ innovation.unsqueeze(-1)).squeeze(-1)
        return posterior, self.observe(posterior)


def sensor_stream(n_steps, batch=3):
    t = torch.arange(n_steps, dtype=torch.float32)
    phase = torch.rand(batch, 1) * 3.0
    clean = torch.stack([torch.sin(0.3 * t + phase), torch.cos(0.2 * t + phase)], dim=-1)
    return clean + 0.2 * torch.randn(batch, n_steps, OBS), clean


def main(n_windows=5):
    torch.manual_seed(0)
    model = LearnedGainFilter()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    stream, clean = sensor_stream(n_windows * WINDOW)
    fstate = FilterState(mean=torch.zeros(stream.shape[0], STATE))
    for w in range(n_windows):
        ys = stream[:, w * WINDOW:(w + 1) * WINDOW]
        targets = clean[:, w * WINDOW:(w + 1) * WINDOW]
        mean, errors = fstate.mean, []
        for t in range(WINDOW):
            mean, y_filtered = model.step(mean, ys[:, t])
            errors.append((y_filtered - targets[:, t]).pow(2).mean())
        fstate.mean = mean
        loss = torch.stack(errors).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        fstate.steps += WINDOW
        fstate.window_losses.append(loss.item())
        print(f"window {w} (t={fstate.steps}): filtered MSE {loss.item():.5f}")
    return fstate


if __name__ == "__main__":
    main()
