"""Recurrent video style transfer: the stylisation net takes the current frame and its own
previous output, with content, style (Gram) and temporal-consistency losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossLogger, PreviousFrameFeeder


def gram(feats):
    b, c, h, w = feats.shape
    f = feats.reshape(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


def make_stylizer():
    return nn.Sequential(
        nn.Conv2d(6, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
        nn.Conv2d(16, 3, 3, padding=1), nn.Sigmoid(),
    )


def make_loss_net():
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
    for p in net.parameters():
        p.requires_grad_(False)
    return net


def synthetic_clip(n_frames, size=16):
    ys, xs = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size), indexing="ij")
    frames = []
    for t in range(n_frames):
        shift = 0.1 * t
        frame = torch.stack([torch.sin(6 * (xs + shift)), torch.cos(5 * ys + shift), xs * ys])
        frames.append((0.5 + 0.5 * frame).unsqueeze(0))
    return frames


class VideoStyleTrainer:
    def __init__(self, style_image, callbacks, style_weight=5.0, temporal_weight=2.0):
        self.stylizer = make_stylizer()
        self.loss_net = make_loss_net()
        self.optimizer = torch.optim.Adam(self.stylizer.parameters(), lr=1e-3)
        self.style_grams = gram(self.loss_net(style_image))
        self.callbacks = callbacks
        self.feeder = next(cb for cb in callbacks if isinstance(cb, PreviousFrameFeeder))
        self.style_weight, self.temporal_weight = style_weight, temporal_weight
        self.clip = self.frame = 0

    def frame_step(self, frame):
        prev = self.feeder.previous(frame)
        stylized = self.stylizer(torch.cat([frame, prev], dim=1))
        feats = self.loss_net(stylized)
        content = F.mse_loss(feats, self.loss_net(frame))
        style = F.mse_loss(gram(feats), self.style_grams)
        temporal = F.mse_loss(stylized, prev) if self.frame > 0 else stylized.new_zeros(())
        loss = content + self.style_weight * style + self.temporal_weight * temporal
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"stylized": stylized, "loss": loss.item(), "temporal": temporal.item()}

    def fit(self, clips):
        for self.clip, frames in enumerate(clips):
            for cb in self.callbacks:
                cb.on_clip_start(self)
            for self.frame, frame in enumerate(frames):
                outputs = self.frame_step(frame)
                for cb in self.callbacks:
                    cb.on_frame_end(self, outputs)
        first_conv = self.stylizer[0]
        print(f"first conv checksum {first_conv.weight.sum().item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    style = torch.rand(1, 3, 16, 16)
    trainer = VideoStyleTrainer(style, [PreviousFrameFeeder(), LossLogger()])
    trainer.fit([synthetic_clip(4), synthetic_clip(3)])
