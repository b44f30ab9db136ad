"""SiamFC-style tracker trained on short synthetic sequences.

The template embedding is computed once per sequence and reused for every search frame;
the per-frame losses are summed and the sequence gets a single backward, so the shared
template graph is backwarded exactly once. The predicted position that picks the next
search window is carried across frames detached (it is an index, not a training signal).
The backbone uses ReLU(inplace=True) after BatchNorm, which only saves its input, and the
cosine-window penalty at evaluation is applied in place under no_grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
FRAME, TEMPLATE, SEARCH = 32, 8, 16


class SiameseTracker(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1, bias=False), nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
            nn.Conv2d(width, width, 3, padding=1, bias=False), nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
        )
        self.adjust = nn.Conv2d(1, 1, 1)

    def embed(self, x):
        return self.backbone(x)

    def score(self, z, x):
        # cross-correlation of the template embedding over the search embedding (stride 1:
        # response cell (i, j) = template placed with its top-left corner at (i, j))
        out = F.conv2d(x.reshape(1, -1, *x.shape[-2:]), z, groups=z.shape[0])
        return self.adjust(out.reshape(x.shape[0], 1, *out.shape[-2:]))


def gaussian_blob(center, size=FRAME, sigma=1.5):
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    return torch.exp(-((yy - center[0]) ** 2 + (xx - center[1]) ** 2) / (2 * sigma ** 2))


def window(frame, center, size):
    padded = F.pad(frame, (size, size, size, size))
    top = int(center[0].round()) - size // 2 + size
    left = int(center[1].round()) - size // 2 + size
    return padded[top:top + size, left:left + size], top - size, left - size


def sequence(length):
    pos = torch.randint(10, FRAME - 10, (2,)).float()
    vel = torch.randn(2)
    frames, centers = [], []
    for _ in range(length):
        frames.append(gaussian_blob(pos) + 0.05 * torch.randn(FRAME, FRAME))
        centers.append(pos.clone())
        pos = (pos + vel).clamp(6, FRAME - 7)
    return frames, centers


def response_labels(shape, offset, radius=2.0):
    yy, xx = torch.meshgrid(torch.arange(shape[0]).float(), torch.arange(shape[1]).float(),
                            indexing="ij")
    return ((yy - offset[0]) ** 2 + (xx - offset[1]) ** 2 <= radius ** 2).float()


def run_sequence(model, frames, centers):
    template, _, _ = window(frames[0], centers[0], TEMPLATE)
    z = model.embed(template[None, None])
    prev = centers[0]
    total = 0.0
    for frame, center in zip(frames[1:], centers[1:]):
        search, top, left = window(frame, prev, SEARCH)
        resp = model.score(z, model.embed(search[None, None]))[0, 0]
        target = center - torch.tensor([top, left]).float() - TEMPLATE // 2
        labels = response_labels(resp.shape, target)
        total = total + F.binary_cross_entropy_with_logits(resp, labels)
        peak = resp.detach().flatten().argmax()
        prev = torch.stack([peak // resp.shape[1], peak % resp.shape[1]]).float()
        prev = (prev + torch.tensor([top, left]).float() + TEMPLATE // 2).clamp(0, FRAME - 1)
    return total / (len(frames) - 1)


@torch.no_grad()
def evaluate(model, frames, centers, influence=0.3):
    model.eval()
    template, _, _ = window(frames[0], centers[0], TEMPLATE)
    z = model.embed(template[None, None])
    search, _, _ = window(frames[1], centers[0], SEARCH)
    resp = model.score(z, model.embed(search[None, None]))[0, 0].sigmoid()
    hann = torch.hann_window(resp.shape[0], periodic=False)
    resp.mul_(1 - influence).add_(influence * torch.outer(hann, hann))
    model.train()
    return resp.max().item()


def main(epochs=2, seqs_per_epoch=3):
    model = SiameseTracker()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        for _ in range(seqs_per_epoch):
            frames, centers = sequence(4)
            loss = run_sequence(model, frames, centers)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        frames, centers = sequence(2)
        print(f"epoch {epoch} loss {loss.item():.4f} peak {evaluate(model, frames, centers):.4f}")
    print(f"checksum {sum(p.detach().abs().sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
