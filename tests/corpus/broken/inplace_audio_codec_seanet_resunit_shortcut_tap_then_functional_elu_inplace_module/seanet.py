"""SEANet-style encoder/decoder blocks for a toy neural audio codec."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResUnit(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.shortcut = nn.Conv1d(ch, ch, 1)
        self.conv1 = nn.Conv1d(ch, ch, 3, padding=dilation, dilation=dilation)
        self.conv2 = nn.Conv1d(ch, ch, 1)

    def forward(self, x):
        skip = self.shortcut(x)
        h = F.elu(x, inplace=True)
        h = self.conv2(F.elu(self.conv1(h)))
        return skip + h


class Encoder(nn.Module):
    def __init__(self, ch=8, latent=4):
        super().__init__()
        self.inp = nn.Conv1d(1, ch, 7, padding=3)
        self.res = ResUnit(ch, dilation=1)
        self.down = nn.Conv1d(ch, 2 * ch, 4, stride=2, padding=1)
        self.proj = nn.Conv1d(2 * ch, latent, 3, padding=1)

    def forward(self, wav):
        h = self.res(self.inp(wav))
        return self.proj(F.elu(self.down(h)))


class Decoder(nn.Module):
    def __init__(self, ch=8, latent=4):
        super().__init__()
        self.inp = nn.Conv1d(latent, 2 * ch, 3, padding=1)
        self.up = nn.ConvTranspose1d(2 * ch, ch, 4, stride=2, padding=1)
        self.res = ResUnit(ch, dilation=2)
        self.out = nn.Conv1d(ch, 1, 7, padding=3)

    def forward(self, z):
        h = self.up(F.elu(self.inp(z)))
        return torch.tanh(self.out(self.res(h)))
