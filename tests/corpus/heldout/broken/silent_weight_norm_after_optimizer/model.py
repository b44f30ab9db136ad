"""A tiny HiFi-GAN-flavoured generator: upsample conditioning frames to a waveform through
a transposed convolution and a stack of dilated residual convolutions."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm


class TinyVocoder(nn.Module):
    def __init__(self, n_feats=8, channels=16, upsample=4):
        super().__init__()
        self.pre = nn.Conv1d(n_feats, channels, 3, padding=1)
        self.up = nn.ConvTranspose1d(channels, channels, 2 * upsample, stride=upsample,
                                     padding=upsample // 2)
        self.convs = nn.ModuleList(
            nn.Conv1d(channels, channels, 3, padding=d, dilation=d) for d in (1, 3, 5))
        self.post = nn.Conv1d(channels, 1, 3, padding=1)

    def on_train_start(self):
        """Weight normalisation on the residual convolutions, as in the paper."""
        for conv in self.convs:
            weight_norm(conv)

    def forward(self, feats):
        x = F.leaky_relu(self.up(self.pre(feats)), 0.1)
        for conv in self.convs:
            x = x + conv(F.leaky_relu(x, 0.1))
        return torch.tanh(self.post(x)).squeeze(1)
