"""Single-object tracking on synthetic clips: a bright blob drifts across the frame, each
step crops a search window around the previous position (zero-padded at the borders) and
the tracker learns the centre heatmap with CenterNet's focal loss plus a motion offset."""
import torch
import torch.nn.functional as F

from model import CenterTracker

torch.manual_seed(0)
FRAME, CROP = 24, 12


def render(center, size=FRAME, sigma=1.5):
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    return torch.exp(-((yy - center[0]) ** 2 + (xx - center[1]) ** 2) / (2 * sigma ** 2))


def crop_around(frame, center):
    """Search window of CROP x CROP around center, zero-padded outside the frame."""
    padded = F.pad(frame, (CROP, CROP, CROP, CROP))
    top, left = int(center[0]) - CROP // 2 + CROP, int(center[1]) - CROP // 2 + CROP
    window = padded[top:top + CROP, left:left + CROP]
    inside = F.pad(torch.ones_like(frame, dtype=torch.bool), (CROP, CROP, CROP, CROP))
    return window, inside[top:top + CROP, left:left + CROP]


def make_batch(n):
    prev_crops, crops, prev_heats, valids, targets, motions = [], [], [], [], [], []
    for _ in range(n):
        start = torch.randint(0, FRAME, (2,)).float()
        step = torch.randint(-2, 3, (2,)).float()
        cur = (start + step).clamp(0, FRAME - 1)
        prev_frame = render(start) + 0.05 * torch.randn(FRAME, FRAME)
        frame = render(cur) + 0.05 * torch.randn(FRAME, FRAME)
        prev_crop, _ = crop_around(prev_frame, start)
        crop, valid = crop_around(frame, start)
        offset = cur - start + CROP // 2
        prev_crops.append(prev_crop)
        crops.append(crop)
        prev_heats.append(render(torch.full((2,), CROP // 2), size=CROP))
        valids.append(valid)
        targets.append(render(offset, size=CROP, sigma=1.0))
        motions.append(cur - start)
    stack = lambda xs: torch.stack(xs).unsqueeze(1)
    return (stack(prev_crops), stack(crops), stack(prev_heats), stack(valids),
            stack(targets), torch.stack(motions))


def focal_loss(pred, gt, alpha=2, beta=4):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.ge(0.99).float()
    pos_loss = (torch.log(pred) * (1 - pred) ** alpha * pos).sum()
    neg_loss = (torch.log(1 - pred) * pred ** alpha * (1 - gt) ** beta * (1 - pos)).sum()
    return -(pos_loss + neg_loss) / pos.sum().clamp(min=1)


def train(steps=6):
    model = CenterTracker()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(steps):
        prev_crop, crop, prev_heat, valid, target, motion = make_batch(8)
        heat, motion_map = model(prev_crop, crop, prev_heat, valid)
        motion_pred = motion_map.mean(dim=(2, 3))
        loss = focal_loss(heat, target) + 0.1 * F.l1_loss(motion_pred, motion)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
