"""Feed-forward video style transfer with a feature-map temporal loss (ReCoNet-style).
The stylisation net sees one frame per step; a FeatureTap on its encoder supplies the
features of the previous frame for the temporal term."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import FeatureTap

SIZE, N_FRAMES = 16, 6
CONTENT_W, STYLE_W, TEMPORAL_W = 1.0, 5.0, 2.0


class StyleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.Upsample(scale_factor=2, mode="nearest"),
            nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 3, 3, padding=1),
        )

    def forward(self, frame):
        return torch.sigmoid(self.decoder(self.encoder(frame)))


def gram(feats):
    b, c, h, w = feats.shape
    f = feats.flatten(2)
    return f @ f.transpose(1, 2) / (c * h * w)


def make_video():
    """A bright square drifting right over a gradient background."""
    ys, xs = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    frames = []
    for t in range(N_FRAMES):
        frame = torch.stack([xs / SIZE, ys / SIZE, 0.5 * torch.ones(SIZE, SIZE)]).float()
        frame[:, 5:10, 2 + t:7 + t] = 1.0
        frames.append(frame.unsqueeze(0))
    return frames


torch.manual_seed(0)
net = StyleNet()
tap = FeatureTap(net.encoder)
# frozen random conv features stand in for VGG as the perceptual loss network
loss_net = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(), nn.Conv2d(12, 12, 3, padding=1))
loss_net.requires_grad_(False)
stripes = (torch.sin(torch.arange(SIZE).float() * 1.3) > 0).float()
style_img = torch.stack([stripes.expand(SIZE, SIZE), stripes.expand(SIZE, SIZE).t(),
                         1 - stripes.expand(SIZE, SIZE)]).unsqueeze(0)
style_gram = gram(loss_net(style_img))
optimizer = torch.optim.Adam(net.parameters(), lr=2e-3)

for epoch in range(2):
    tap.reset()
    for t, frame in enumerate(make_video()):
        stylised = net(frame)
        feats = loss_net(stylised)
        loss = CONTENT_W * F.mse_loss(feats, loss_net(frame))
        loss = loss + STYLE_W * F.mse_loss(gram(feats), style_gram)
        if tap.prev is not None:
            loss = loss + TEMPORAL_W * F.mse_loss(tap.curr, tap.prev)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} frame {t}: loss {loss.item():.5f}")

tap.remove()
with torch.no_grad():
    out = net(make_video()[0])
print(f"stylised mean {out.mean().item():.4f}")
