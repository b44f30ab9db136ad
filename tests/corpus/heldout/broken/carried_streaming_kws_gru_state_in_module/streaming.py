"""Streaming keyword spotter. The deployed model runs on an always-on microphone and consumes
one chunk of log-mel frames per call, so the module keeps its GRU state between calls; the
same module is used for training on long recordings cut into consecutive chunks."""
import torch.nn as nn


class StreamingKWS(nn.Module):
    def __init__(self, n_mels=20, channels=32, n_classes=4):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(n_mels, channels, kernel_size=3, padding=1),
            nn.BatchNorm1d(channels),
            nn.ReLU(),
        )
        self.gru = nn.GRU(channels, channels, batch_first=True)
        self.classifier = nn.Linear(channels, n_classes)
        self.state = None

    def reset_stream(self):
        self.state = None

    def forward(self, frames):
        """frames: (batch, n_mels, time) for one chunk of the stream."""
        feats = self.frontend(frames).transpose(1, 2)
        out, self.state = self.gru(feats, self.state)
        return self.classifier(out[:, -1])
