"""Environmental sound tagger with a learnable filterbank front end."""
import torch
import torch.nn as nn


class LearnableFrontend(nn.Module):
    """Conv1d filterbank, log compression and online mean normalisation.

    Training normalises with the batch mean; serving uses the running mean,
    the way cepstral mean normalisation runs on the device.
    """

    def __init__(self, n_filters=8, kernel=16, stride=8, momentum=0.05):
        super().__init__()
        self.filters = nn.Conv1d(1, n_filters, kernel, stride=stride)
        self.momentum = momentum
        self.running_mean = torch.zeros(n_filters, 1)

    def forward(self, wave):
        energy = self.filters(wave.unsqueeze(1)).pow(2)
        logspec = torch.log1p(energy)
        if self.training:
            batch_mean = logspec.mean(dim=(0, 2)).unsqueeze(1)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * batch_mean
            return logspec - batch_mean
        return logspec - self.running_mean


class SoundTagger(nn.Module):
    def __init__(self, n_classes=5, n_filters=8):
        super().__init__()
        self.frontend = LearnableFrontend(n_filters=n_filters)
        self.conv = nn.Conv1d(n_filters, 16, 3, padding=1)
        self.head = nn.Linear(16, n_classes)

    def forward(self, wave):
        feats = self.frontend(wave)
        h = torch.relu(self.conv(feats))
        return self.head(h.mean(dim=2))
