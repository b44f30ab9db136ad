import torch
import torch.nn as nn


class LoopDetectorForecaster(nn.Module):
    """Forecasts the next 5-minute speed at each loop detector of a corridor.

    Besides the sensor readings, the model sees its own previous forecast,
    which tells it how wrong it was a step ago (a simple error-feedback
    input used by many traffic forecasters)."""

    def __init__(self, n_sensors, hidden=32):
        super().__init__()
        self.gru = nn.GRU(2 * n_sensors, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_sensors)
        self.last_forecast = None

    def forward(self, speeds, hidden=None):
        if self.last_forecast is None:
            feedback = speeds[:, :1, :]
        else:
            feedback = self.last_forecast.unsqueeze(1)
        feedback = feedback.expand(-1, speeds.shape[1], -1)
        out, hidden = self.gru(torch.cat([speeds, feedback], dim=-1), hidden)
        forecast = self.head(out[:, -1])
        self.last_forecast = forecast
        return forecast, hidden
