"""BARF-style joint optimisation of a tiny radiance field and per-view camera pose
corrections. The renderer is a closure over the sample depths; the ray bundle of every
training view is generated once from the (refined) camera poses and cached."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
H = W = 6
N_VIEWS, N_SAMPLES, FOCAL = 3, 12, 5.0


def skew(v):
    zero = torch.zeros_like(v[..., 0])
    return torch.stack([zero, -v[..., 2], v[..., 1], v[..., 2], zero, -v[..., 0],
                        -v[..., 1], v[..., 0], zero], -1).view(*v.shape[:-1], 3, 3)


def refine(base_rot, base_t, delta):
    """Apply a small se(3) correction (axis-angle, translation) to every camera."""
    return torch.linalg.matrix_exp(skew(delta[:, :3])) @ base_rot, base_t + delta[:, 3:]


def camera_rays(rot, t):
    j, i = torch.meshgrid(torch.arange(H).float(), torch.arange(W).float(), indexing="ij")
    dirs = torch.stack([(i - W / 2) / FOCAL, -(j - H / 2) / FOCAL, -torch.ones_like(i)], -1)
    rays_d = torch.einsum("vab,pb->vpa", rot, dirs.view(-1, 3))
    rays_o = t[:, None, :].expand_as(rays_d)
    return torch.cat([rays_o, rays_d], dim=-1)  # (views, pixels, 6)


def make_renderer(field, near=1.0, far=5.0):
    depths = torch.linspace(near, far, N_SAMPLES)
    step = (far - near) / N_SAMPLES

    def render(rays):
        pts = rays[:, None, :3] + rays[:, None, 3:] * depths[:, None]
        out = field(pts)
        sigma, rgb = torch.relu(out[..., 0]), torch.sigmoid(out[..., 1:])
        alpha = 1 - torch.exp(-sigma * step)
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha[:, :-1]], 1), 1)
        return ((alpha * trans)[..., None] * rgb).sum(1)

    return render


def look_at_origin(angles, radius=3.0):
    rots, ts = [], []
    for a in angles:
        c = torch.tensor([radius * math.sin(a), 0.0, radius * math.cos(a)])
        z = c / c.norm()
        x = torch.linalg.cross(torch.tensor([0.0, 1.0, 0.0]), z)
        rots.append(torch.stack([x, torch.linalg.cross(z, x), z], 1))
        ts.append(c)
    return torch.stack(rots), torch.stack(ts)


true_rot, true_t = look_at_origin([0.0, 0.6, 1.2])
with torch.no_grad():  # ground-truth images: a soft orange ball at the origin
    gt_rays = camera_rays(true_rot, true_t)
    o, d = gt_rays[..., :3], gt_rays[..., 3:]
    miss = (o + d * (-(o * d).sum(-1, keepdim=True) / d.pow(2).sum(-1, keepdim=True))).norm(dim=-1)
    images = torch.sigmoid(6 * (0.8 - miss))[..., None] * torch.tensor([1.0, 0.5, 0.1])

noisy_rot, noisy_t = refine(true_rot, true_t, 0.05 * torch.randn(N_VIEWS, 6))
field = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
pose_delta = nn.Parameter(torch.zeros(N_VIEWS, 6))
optimizer = torch.optim.Adam([{"params": field.parameters(), "lr": 5e-3},
                              {"params": [pose_delta], "lr": 1e-3}])
render = make_renderer(field)

rays = camera_rays(*refine(noisy_rot, noisy_t, pose_delta))
for it in range(6):
    view = it % N_VIEWS
    pred = render(rays[view])
    loss = (pred - images[view]).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it} view {view} mse {loss.item():.5f} pose |delta| {pose_delta.norm().item():.5f}")
