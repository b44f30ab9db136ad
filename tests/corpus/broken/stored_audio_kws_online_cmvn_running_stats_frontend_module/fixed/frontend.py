"""Audio front end shared by the keyword-spotting recipes: a learnable log filterbank
over framed waveforms and streaming (online) cepstral mean/variance normalisation."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LearnableFilterbank(nn.Module):
    """Frames the waveform and applies a trainable 1-D conv filterbank + log compression."""

    def __init__(self, n_filters=20, kernel=25, hop=10):
        super().__init__()
        self.conv = nn.Conv1d(1, n_filters, kernel, stride=hop, bias=False)

    def forward(self, wave):
        energy = self.conv(wave.unsqueeze(1)).pow(2)
        return torch.log1p(F.avg_pool1d(energy, 3, stride=1, padding=1))


class OnlineCMVN(nn.Module):
    """Streaming mean/variance normalisation: per-channel statistics are tracked with an
    exponential moving average so the same layer works frame-by-frame on device."""

    def __init__(self, channels, momentum=0.05, eps=1e-5):
        super().__init__()
        self.momentum, self.eps = momentum, eps
        self.register_buffer("running_mean", torch.zeros(channels, 1))
        self.register_buffer("running_var", torch.ones(channels, 1))

    def forward(self, feats):
        if self.training:
            batch_mean = feats.mean(dim=(0, 2)).unsqueeze(1)
            batch_var = feats.var(dim=(0, 2)).unsqueeze(1)
            m = self.momentum
            with torch.no_grad():
                self.running_mean = (1 - m) * self.running_mean + m * batch_mean
                self.running_var = (1 - m) * self.running_var + m * batch_var
        return (feats - self.running_mean) / (self.running_var + self.eps).sqrt()
