"""Causal 2D-to-3D pose lifter for streaming video. Each frame's 2D keypoints are lifted to 3D
conditioned on the pose the lifter predicted for the previous frame; the module keeps that pose
itself, so the same forward() serves the live demo one frame at a time."""
import torch
import torch.nn as nn

N_JOINTS = 8


class CausalPoseLifter(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.embed_2d = nn.Linear(N_JOINTS * 2, hidden)
        self.embed_prev = nn.Linear(N_JOINTS * 3, hidden)
        self.block = nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, hidden), nn.GELU())
        self.head = nn.Linear(hidden, N_JOINTS * 3)
        self.prev_pose = None

    def reset(self, batch):
        """Start of a new video: no previous pose yet."""
        self.prev_pose = torch.zeros(batch, N_JOINTS * 3)

    def forward(self, kp2d):
        h = self.embed_2d(kp2d.flatten(1)) + self.embed_prev(self.prev_pose)
        h = h + self.block(h)
        pose = self.prev_pose + self.head(h)  # residual: the motion since the last frame
        self.prev_pose = pose
        return pose.view(-1, N_JOINTS, 3)
