"""Pedestrian trajectory predictor: GRU encoder over observed displacements, MLP decoder
for the next HORIZON displacements."""
import torch
import torch.nn as nn

HORIZON = 6


class TrajectoryPredictor(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.embed = nn.Linear(2, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.decoder = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(),
                                     nn.Linear(hidden, 2 * HORIZON))

    def forward(self, past):
        h_seq, _ = self.encoder(torch.relu(self.embed(past)))
        return self.decoder(h_seq[:, -1]).view(-1, HORIZON, 2)
