"""Two-stage fine-tuning of a small CNN on texture patches.

Stage 1 continues the 8-way rotation/flip pretext task from a checkpoint (loaded with
assign=True before any optimizer exists). Stage 2 swaps the pretext head for a 3-way
texture head and rebuilds the optimizer (lower lr for the backbone); an EMA copy of the
fine-tuned network is kept for evaluation and is held by no optimizer."""
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextureNet(nn.Module):
    def __init__(self, n_out):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(16, n_out)

    def forward(self, x):
        return self.head(self.backbone(x))


def checkpoint_bytes():
    g = torch.Generator().manual_seed(3)
    donor = TextureNet(8)
    with torch.no_grad():
        for p in donor.parameters():
            p.copy_(0.3 * torch.randn(p.shape, generator=g))
    buf = io.BytesIO()
    torch.save(donor.state_dict(), buf)
    buf.seek(0)
    return buf


def pretext_batch(gen, n=32):
    base = torch.randn(n, 1, 12, 12, generator=gen).cumsum(-1)
    k = torch.randint(0, 8, (n,), generator=gen)
    views = [torch.rot90(b, int(r) % 4, dims=(-2, -1)) for b, r in zip(base, k)]
    views = [v.flip(-1) if int(r) >= 4 else v for v, r in zip(views, k)]
    return torch.stack(views), k


def texture_batch(gen, n=32):
    y = torch.randint(0, 3, (n,), generator=gen)
    freq = (1.0 + y.float())[:, None, None, None]
    grid = torch.arange(12.0)
    x = torch.sin(freq * grid[None, None, None, :] * 0.5) + 0.3 * torch.randn(n, 1, 12, 12, generator=gen)
    return x, y


def param_groups(model, backbone_lr, head_lr):
    return [{"params": model.backbone.parameters(), "lr": backbone_lr},
            {"params": model.head.parameters(), "lr": head_lr}]


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = TextureNet(8)
    model.load_state_dict(torch.load(checkpoint_bytes()), assign=True)

    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(3):
        x, k = pretext_batch(gen)
        loss = F.cross_entropy(model(x), k)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"pretext step {step} loss {loss.item():.4f}")

    model.head = nn.Linear(model.head.in_features, 3)
    optimizer = torch.optim.AdamW(param_groups(model, 1e-3, 1e-2), weight_decay=1e-4)
    ema = copy.deepcopy(model).requires_grad_(False).eval()

    for step in range(4):
        x, y = texture_batch(gen)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            for p_ema, p in zip(ema.parameters(), model.parameters()):
                p_ema.lerp_(p, 0.2)
        print(f"finetune step {step} loss {loss.item():.4f}")

    with torch.no_grad():
        x, y = texture_batch(gen, 128)
        acc = (ema(x).argmax(1) == y).float().mean()
        checksum = sum(p.double().sum() for p in model.parameters())
    print(f"ema accuracy {acc.item():.3f} param checksum {checksum.item():.6f}")


if __name__ == "__main__":
    main()
