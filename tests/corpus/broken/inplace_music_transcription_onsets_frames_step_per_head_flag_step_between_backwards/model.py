"""Onsets-and-Frames style piano transcription model: a shared acoustic stack over the log-mel
frames, an onset head, and a frame head conditioned on the (stopped) onset probabilities."""
import torch
import torch.nn as nn


class OnsetsAndFrames(nn.Module):
    def __init__(self, n_mels, n_pitches, hidden=32):
        super().__init__()
        self.acoustic = nn.Sequential(
            nn.Conv1d(n_mels, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 3, padding=1), nn.ReLU())
        self.onset_head = nn.Linear(hidden, n_pitches)
        self.frame_head = nn.Linear(hidden + n_pitches, n_pitches)

    def forward(self, mel):
        h = self.acoustic(mel).transpose(1, 2)
        onset_logits = self.onset_head(h)
        frame_in = torch.cat([h, torch.sigmoid(onset_logits).detach()], dim=-1)
        return {"onset": onset_logits, "frame": self.frame_head(frame_in)}
