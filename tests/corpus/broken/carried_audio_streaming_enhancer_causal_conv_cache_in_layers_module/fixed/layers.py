"""Streaming building blocks: causal 1-D convolutions that remember their left context.

In streaming mode each layer keeps the last (kernel_size - 1) * dilation input frames of the
previous chunk, so that a long recording processed chunk by chunk gives the same output as
processing it in one go.
"""
import torch
import torch.nn as nn


class StreamingCausalConv1d(nn.Module):
    def __init__(self, in_ch, out_ch, kernel_size, dilation=1):
        super().__init__()
        self.pad = (kernel_size - 1) * dilation
        self.conv = nn.Conv1d(in_ch, out_ch, kernel_size, dilation=dilation)
        self.cache = None

    def reset_stream(self):
        self.cache = None

    def forward(self, x):
        if self.cache is None:
            left = x.new_zeros(x.size(0), x.size(1), self.pad)
        else:
            left = self.cache
        x = torch.cat([left, x], dim=-1)
        self.cache = x[..., -self.pad:].detach()
        return self.conv(x)


class GatedResidualBlock(nn.Module):
    def __init__(self, channels, kernel_size, dilation):
        super().__init__()
        self.conv = StreamingCausalConv1d(channels, 2 * channels, kernel_size, dilation)
        self.proj = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        a, b = self.conv(x).chunk(2, dim=1)
        return x + self.proj(torch.tanh(a) * torch.sigmoid(b))


def reset_streams(module):
    for m in module.modules():
        if isinstance(m, StreamingCausalConv1d):
            m.reset_stream()
