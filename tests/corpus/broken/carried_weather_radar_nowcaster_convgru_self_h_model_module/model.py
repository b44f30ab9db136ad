"""Radar nowcasting: a ConvGRU cell that keeps its state between calls."""
import torch
import torch.nn as nn


class ConvGRUCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 2 * hid_ch, k, padding=k // 2)
        self.cand = nn.Conv2d(in_ch + hid_ch, hid_ch, k, padding=k // 2)

    def forward(self, x, h):
        zr = torch.sigmoid(self.gates(torch.cat([x, h], dim=1)))
        z, r = zr.chunk(2, dim=1)
        n = torch.tanh(self.cand(torch.cat([x, r * h], dim=1)))
        return (1 - z) * h + z * n


class RadarNowcaster(nn.Module):
    """Takes one reflectivity frame per call and predicts the next one."""

    def __init__(self, hid_ch=8):
        super().__init__()
        self.cell = ConvGRUCell(1, hid_ch)
        self.head = nn.Conv2d(hid_ch, 1, 1)
        self.h = None

    def reset(self, batch, height, width):
        self.h = torch.zeros(batch, self.cell.hid_ch, height, width)

    def forward(self, frame):
        self.h = self.cell(frame, self.h)
        return torch.sigmoid(self.head(self.h))
