"""Iterative optical flow refinement on synthetic translated textures: each iteration warps the
second frame's features by the current flow, builds a local cost volume and predicts a flow
update. As in RAFT, the flow is detached between iterations and every iterate is supervised
(exponentially weighted); a photometric term checks the final warp."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from flowlib import UpdateMonitor, local_cost_volume, warp

SIZE = 16


class IterativeFlow(nn.Module):
    def __init__(self, features=12, iters=3, radius=1):
        super().__init__()
        self.iters, self.radius = iters, radius
        self.encoder = nn.Sequential(nn.Conv2d(3, features, 3, padding=1), nn.ReLU(inplace=True),
                                     nn.Conv2d(features, features, 3, padding=1))
        corr = (2 * radius + 1) ** 2
        self.estimator = nn.Sequential(nn.Conv2d(corr + features + 2, 32, 3, padding=1),
                                       nn.LeakyReLU(0.1, inplace=True),
                                       nn.Conv2d(32, 2, 3, padding=1))

    def forward(self, image1, image2):
        fmap1, fmap2 = self.encoder(image1), self.encoder(image2)
        flow = torch.zeros(len(image1), 2, *image1.shape[-2:])
        predictions = []
        for _ in range(self.iters):
            flow = flow.detach()
            cost = local_cost_volume(fmap1, warp(fmap2, flow), self.radius)
            flow = flow + self.estimator(torch.cat([cost, fmap1, flow], dim=1))
            predictions.append(flow)
        return predictions


def translated_pair(batch_size, gen):
    base = F.interpolate(torch.randn(batch_size, 3, 5, 5, generator=gen), size=(SIZE, SIZE),
                         mode="bicubic", align_corners=True)
    shift = torch.randint(-1, 2, (batch_size, 2), generator=gen)
    image2 = torch.stack([torch.roll(img, shifts=(int(dy), int(dx)), dims=(1, 2))
                          for img, (dx, dy) in zip(base, shift.tolist())])
    flow = shift.float()[:, :, None, None].expand(-1, -1, SIZE, SIZE)
    return base, image2, flow


@torch.no_grad()
def evaluate(model, batch):
    image1, image2, flow_gt = batch
    return (model(image1, image2)[-1] - flow_gt).norm(dim=1).mean().item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = IterativeFlow()
    monitor = UpdateMonitor()
    model.estimator.register_forward_hook(monitor)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    val = translated_pair(16, torch.Generator().manual_seed(7))
    for epoch in range(2):
        for _ in range(3):
            image1, image2, flow_gt = translated_pair(8, gen)
            predictions = model(image1, image2)
            n = len(predictions)
            supervised = sum(0.8 ** (n - i - 1) * (p - flow_gt).abs().mean()
                             for i, p in enumerate(predictions))
            photometric = (warp(image2, predictions[-1]) - image1).abs().mean()
            loss = supervised + 0.1 * photometric
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val epe {evaluate(model, val):.4f} "
              f"mean update {sum(monitor.magnitudes) / len(monitor.magnitudes):.4f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
