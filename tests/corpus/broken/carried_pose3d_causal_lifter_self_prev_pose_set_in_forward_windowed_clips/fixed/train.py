"""Train the causal lifter on synthetic walking skeletons. Videos are long, so each clip is
cut into short windows and the optimizer steps once per window (MPJPE plus a velocity term),
while the lifter keeps running over the whole clip as it would online."""
import torch

from model import N_JOINTS, CausalPoseLifter

BATCH, FRAMES, WINDOW = 6, 12, 4
BONE_SCALE = torch.tensor([1.0, 0.5, 0.8])


def make_clip(gen):
    rest = torch.randn(BATCH, N_JOINTS, 3, generator=gen)
    phase = 6.28 * torch.rand(BATCH, N_JOINTS, 1, generator=gen)
    t = torch.arange(FRAMES, dtype=torch.float32).view(FRAMES, 1, 1, 1)
    pose3d = rest + 0.3 * torch.sin(0.5 * t + phase) * BONE_SCALE
    kp2d = pose3d[..., :2] / (4.0 + pose3d[..., 2:])  # pinhole projection
    return kp2d + 0.01 * torch.randn(kp2d.shape, generator=gen), pose3d


def mpjpe(pred, gt):
    return (pred - gt).norm(dim=-1).mean()


def main(n_clips=2):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = CausalPoseLifter()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    step = 0
    for clip in range(n_clips):
        kp2d, gt = make_clip(gen)
        model.reset(BATCH)
        for start in range(0, FRAMES, WINDOW):
            # truncated BPTT: keep the pose value, drop the previous window's graph
            model.prev_pose = model.prev_pose.detach()
            loss, prev = 0.0, None
            for t in range(start, start + WINDOW):
                pred = model(kp2d[t])
                loss = loss + mpjpe(pred, gt[t])
                if prev is not None:
                    loss = loss + 0.5 * mpjpe(pred - prev, gt[t] - gt[t - 1])
                prev = pred
            loss = loss / WINDOW
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"clip {clip} frames {start}-{start + WINDOW - 1} step {step} "
                  f"loss {loss.item():.4f}")
            step += 1


if __name__ == "__main__":
    main()
