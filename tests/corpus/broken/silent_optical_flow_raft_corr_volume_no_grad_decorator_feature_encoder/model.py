"""A small RAFT-style optical flow network: shared feature encoder, context encoder, all-pairs
correlation (corr.py) and a recurrent update block refining the flow at 1/2 resolution."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from corr import all_pairs_correlation, lookup


class UpdateBlock(nn.Module):
    def __init__(self, hidden, context, corr_channels):
        super().__init__()
        self.motion = nn.Conv2d(corr_channels + 2, 24, 3, padding=1)
        self.gate = nn.Conv2d(hidden + context + 24, hidden, 3, padding=1)
        self.candidate = nn.Conv2d(hidden + context + 24, hidden, 3, padding=1)
        self.flow_head = nn.Conv2d(hidden, 2, 3, padding=1)

    def forward(self, net, inp, corr_feats, flow):
        motion = F.relu(self.motion(torch.cat([corr_feats, flow], dim=1)))
        x = torch.cat([net, inp, motion], dim=1)
        z = torch.sigmoid(self.gate(x))
        net = (1 - z) * net + z * torch.tanh(self.candidate(x))
        return net, self.flow_head(net)


class RAFTLite(nn.Module):
    def __init__(self, features=16, hidden=16, context=16, iters=3, radius=1):
        super().__init__()
        self.hidden, self.context, self.iters, self.radius = hidden, context, iters, radius
        self.fnet = nn.Sequential(
            nn.Conv2d(3, features, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(features, features, 3, padding=1))
        self.cnet = nn.Sequential(
            nn.Conv2d(3, hidden + context, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(hidden + context, hidden + context, 3, padding=1))
        self.update = UpdateBlock(hidden, context, (2 * radius + 1) ** 2)

    def forward(self, image1, image2):
        fmap1, fmap2 = self.fnet(image1), self.fnet(image2)
        corr = all_pairs_correlation(fmap1, fmap2)
        net, inp = torch.split(self.cnet(image1), [self.hidden, self.context], dim=1)
        net, inp = torch.tanh(net), torch.relu(inp)
        b, _, h, w = fmap1.shape
        ys, xs = torch.meshgrid(torch.arange(h).float(), torch.arange(w).float(), indexing="ij")
        coords0 = torch.stack([xs, ys]).expand(b, -1, -1, -1)
        coords1 = coords0.clone()
        predictions = []
        for _ in range(self.iters):
            coords1 = coords1.detach()
            flow = coords1 - coords0
            net, delta = self.update(net, inp, lookup(corr, coords1, self.radius), flow)
            coords1 = coords1 + delta
            up = F.interpolate(coords1 - coords0, scale_factor=2, mode="bilinear",
                               align_corners=True)
            predictions.append(2 * up)
        return predictions
