"""Online video object segmentation with a mask-propagation network.

Each frame is segmented from the RGB frame plus the previous frame's mask as a fourth input
channel (temporal prior). The first frame uses the annotated mask; after that the network's
own soft prediction is propagated, as at test time. The model is updated after every frame.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

H = W = 16
N_FRAMES = 5


def conv_bn_relu(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU())


class MaskPropagationNet(nn.Module):
    def __init__(self, width=12):
        super().__init__()
        self.encoder = nn.Sequential(conv_bn_relu(4, width), conv_bn_relu(width, 2 * width, 2))
        self.decoder = nn.Sequential(conv_bn_relu(2 * width + 4, width), nn.Conv2d(width, 1, 1))

    def forward(self, frame, prev_mask):
        x = torch.cat([frame, prev_mask], dim=1)
        feats = F.interpolate(self.encoder(x), size=frame.shape[-2:], mode="bilinear",
                              align_corners=False)
        return self.decoder(torch.cat([feats, x], dim=1))


def moving_square_clip(batch, n_frames):
    frames, masks = [], []
    yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    for t in range(n_frames):
        mask = ((yy >= 3 + t) & (yy < 9 + t) & (xx >= 2 + t) & (xx < 8 + t)).float()
        mask = mask.expand(batch, 1, H, W)
        frame = 0.3 * torch.randn(batch, 3, H, W) + mask * torch.tensor([0.8, 0.2, 0.5]).view(1, 3, 1, 1)
        frames.append(frame)
        masks.append(mask)
    return frames, masks


def dice_loss(logits, target, eps=1.0):
    prob = torch.sigmoid(logits)
    inter = (prob * target).sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (prob.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) + eps)).mean()


class OnlineVOSTrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.prev_mask = None

    def train_clip(self, frames, masks):
        self.prev_mask = masks[0]
        for t in range(1, len(frames)):
            logits = self.model(frames[t], self.prev_mask)
            loss = F.binary_cross_entropy_with_logits(logits, masks[t]) + dice_loss(logits, masks[t])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.prev_mask = torch.sigmoid(logits).detach()
            iou = ((self.prev_mask > 0.5).float() * masks[t]).sum() / (
                ((self.prev_mask > 0.5).float() + masks[t]).clamp(max=1).sum())
            print(f"frame {t} loss {loss.item():.4f} iou {iou.item():.3f}")


def main():
    torch.manual_seed(0)
    trainer = OnlineVOSTrainer(MaskPropagationNet())
    frames, masks = moving_square_clip(batch=2, n_frames=N_FRAMES)
    trainer.train_clip(frames, masks)


if __name__ == "__main__":
    main()
