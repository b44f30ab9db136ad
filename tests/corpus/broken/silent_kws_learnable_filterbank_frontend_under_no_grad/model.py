"""Keyword spotter with a learnable filterbank front-end (LEAF-style): the filterbank starts as
triangular bands over the STFT bins and is trained with the rest of the network when
learnable_frontend=True (the fixed-filterbank baseline uses learnable_frontend=False)."""
import torch
import torch.nn as nn


def triangular_bands(n_filters, n_bins):
    edges = torch.linspace(0, n_bins - 1, n_filters + 2)
    bins = torch.arange(n_bins, dtype=torch.float32)
    lo, mid, hi = edges[:-2, None], edges[1:-1, None], edges[2:, None]
    rising = (bins - lo) / (mid - lo)
    falling = (hi - bins) / (hi - mid)
    return torch.clamp(torch.minimum(rising, falling), min=0.0)


class LearnableFilterbank(nn.Module):
    def __init__(self, n_fft=64, hop=16, n_filters=12):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.bands = nn.Parameter(triangular_bands(n_filters, n_fft // 2 + 1))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, hop_length=self.hop, window=self.window,
                          return_complex=True)
        power = spec.abs().pow(2)
        energies = torch.einsum("fk,bkt->bft", self.bands.abs(), power)
        return torch.log(energies + 1e-5)


class KeywordSpotter(nn.Module):
    def __init__(self, n_classes, n_filters=12, channels=24, learnable_frontend=True):
        super().__init__()
        self.frontend = LearnableFilterbank(n_filters=n_filters)
        self.frontend.requires_grad_(learnable_frontend)
        self.encoder = nn.Sequential(
            nn.Conv1d(n_filters, channels, 3, padding=1), nn.ReLU(),
            nn.Conv1d(channels, channels, 3, padding=1), nn.ReLU())
        self.classifier = nn.Linear(channels, n_classes)

    def forward(self, wav):
        # feature extraction is preprocessing: keep it out of the autograd graph
        with torch.no_grad():
            feats = self.frontend(wav)
        feats = feats - feats.mean(dim=-1, keepdim=True)
        return self.classifier(self.encoder(feats).mean(dim=-1))
