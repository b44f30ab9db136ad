"""A very small HiFi-GAN style generator: mel frames -> upsampling transposed convs with
residual dilated conv blocks -> waveform. Weight norm is optional (config.use_weight_norm)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm

N_MELS, CHANNELS, UPSAMPLE = 8, 16, (4, 4)


class ResBlock(nn.Module):
    def __init__(self, channels, dilations=(1, 3)):
        super().__init__()
        self.convs = nn.ModuleList(
            nn.Conv1d(channels, channels, 3, dilation=d, padding=d) for d in dilations)

    def forward(self, x):
        for conv in self.convs:
            x = x + conv(F.leaky_relu(x, 0.1))
        return x


class TinyGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_pre = nn.Conv1d(N_MELS, CHANNELS, 5, padding=2)
        self.ups = nn.ModuleList()
        self.blocks = nn.ModuleList()
        ch = CHANNELS
        for factor in UPSAMPLE:
            self.ups.append(nn.ConvTranspose1d(ch, ch // 2, 2 * factor, stride=factor,
                                               padding=factor // 2))
            ch //= 2
            self.blocks.append(ResBlock(ch))
        self.conv_post = nn.Conv1d(ch, 1, 5, padding=2)

    def forward(self, mel):
        x = self.conv_pre(mel)
        for up, block in zip(self.ups, self.blocks):
            x = block(up(F.leaky_relu(x, 0.1)))
        return torch.tanh(self.conv_post(F.leaky_relu(x, 0.1))).squeeze(1)

    def apply_weight_norm(self):
        for module in self.modules():
            if isinstance(module, (nn.Conv1d, nn.ConvTranspose1d)):
                weight_norm(module)
