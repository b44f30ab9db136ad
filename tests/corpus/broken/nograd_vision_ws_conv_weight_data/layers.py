"""Weight-standardized convolution (Qiao et al.): each filter is normalized to zero mean
and unit variance before it is applied, which pairs well with GroupNorm at small batch
sizes."""
import torch.nn as nn
import torch.nn.functional as F


class WSConv2d(nn.Conv2d):
    def forward(self, x):
        w = self.weight.data
        mean = w.mean(dim=(1, 2, 3), keepdim=True)
        std = w.std(dim=(1, 2, 3), keepdim=True) + 1e-5
        w = (w - mean) / std
        return F.conv2d(x, w, self.bias.data, self.stride, self.padding,
                        self.dilation, self.groups)


def ws_block(c_in, c_out, stride=1):
    return nn.Sequential(
        WSConv2d(c_in, c_out, 3, stride=stride, padding=1),
        nn.GroupNorm(min(4, c_out // 2), c_out, affine=False),
        nn.ReLU(),
    )
