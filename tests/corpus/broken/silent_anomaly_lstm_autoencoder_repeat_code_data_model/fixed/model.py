"""Sequence autoencoder for multivariate sensor windows (the Keras LSTM-AE recipe:
encode to a code vector, repeat it along time, decode back to the window)."""
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, n_sensors, hidden, code):
        super().__init__()
        self.lstm = nn.LSTM(n_sensors, hidden, batch_first=True)
        self.to_code = nn.Linear(hidden, code)

    def forward(self, x):
        _, (h, _) = self.lstm(x)
        return self.to_code(h[-1])


class Decoder(nn.Module):
    def __init__(self, code, hidden, n_sensors):
        super().__init__()
        self.lstm = nn.LSTM(code, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_sensors)

    def forward(self, steps):
        h, _ = self.lstm(steps)
        return self.out(h)


class LSTMAutoencoder(nn.Module):
    def __init__(self, n_sensors, hidden=24, code=6):
        super().__init__()
        self.encoder = Encoder(n_sensors, hidden, code)
        self.decoder = Decoder(code, hidden, n_sensors)

    def forward(self, x):
        code = self.encoder(x)
        # RepeatVector: tile the code along time for the decoder
        steps = code.unsqueeze(1).repeat(1, x.shape[1], 1)
        return self.decoder(steps)
