"""Learned dead reckoning for a wheeled robot.

A small network turns wheel-encoder ticks and gyro readings into body-frame motion
increments (forward, sideways, heading change). The increments are integrated into a global
pose; a GPS fix for every timestep of a segment supervises the integrated track. The log is
processed segment by segment, and the integrator keeps the robot's pose between segments so
the track stays continuous.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

STEPS_PER_SEGMENT = 10
N_SEGMENTS = 6


class MotionModel(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 3))
        self.log_wheel_radius = nn.Parameter(torch.tensor(0.0))

    def forward(self, readings):
        """readings: (T, 3) = left ticks, right ticks, gyro rate -> (T, 3) increments."""
        base = torch.stack([
            0.5 * (readings[:, 0] + readings[:, 1]) * self.log_wheel_radius.exp(),
            torch.zeros(readings.shape[0]),
            readings[:, 2],
        ], dim=-1)
        return base + 0.1 * self.net(readings)


def make_integrator(start_pose):
    pose = start_pose.clone()

    def integrate(increments):
        nonlocal pose
        pose = pose.detach()
        track = []
        for d in increments:
            heading = pose[2] + d[2]
            c, s = torch.cos(heading), torch.sin(heading)
            pose = torch.stack([pose[0] + c * d[0] - s * d[1], pose[1] + s * d[0] + c * d[1], heading])
            track.append(pose)
        return torch.stack(track)

    return integrate


def robot_log(generator):
    """Yields (readings, gps_xy) per segment of one continuous drive."""
    true_radius, truth = 1.3, torch.zeros(3)
    for _ in range(N_SEGMENTS):
        ticks = 0.2 + 0.05 * torch.rand(STEPS_PER_SEGMENT, 2, generator=generator)
        gyro = 0.15 * torch.randn(STEPS_PER_SEGMENT, generator=generator)
        readings = torch.cat([ticks, gyro.unsqueeze(1)], dim=1)
        gps = []
        for t in range(STEPS_PER_SEGMENT):
            heading = truth[2] + gyro[t]
            step = 0.5 * (ticks[t, 0] + ticks[t, 1]) * true_radius
            truth = torch.stack([truth[0] + torch.cos(heading) * step, truth[1] + torch.sin(heading) * step, heading])
            gps.append(truth[:2] + 0.01 * torch.randn(2, generator=generator))
        yield readings, torch.stack(gps)


def train():
    torch.manual_seed(0)
    model = MotionModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
    integrate = make_integrator(torch.zeros(3))
    for seg, (readings, gps) in enumerate(robot_log(torch.Generator().manual_seed(5))):
        track = integrate(model(readings))
        loss = F.smooth_l1_loss(track[:, :2], gps)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"segment {seg} gps loss {loss.item():.4f} wheel radius {model.log_wheel_radius.exp().item():.3f}")


if __name__ == "__main__":
    train()
