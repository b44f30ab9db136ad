"""Next-frame prediction on bouncing-square clips with a ConvGRU. For every clip the state
is created from zeros; the first CONTEXT frames are fed from the data, then the model runs
closed loop on its own predictions (gradients flow through the fed-back frames) and the
loss over the predicted frames is backpropagated once per clip. The last prediction is
kept, detached, for a visual sanity metric."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, FRAMES, CONTEXT, CLIPS_PER_EPOCH, EPOCHS = 16, 8, 4, 3, 2


def bouncing_square(gen, batch=4):
    video = torch.zeros(batch, FRAMES, 1, SIZE, SIZE)
    pos = torch.randint(0, SIZE - 4, (batch, 2), generator=gen)
    sign = torch.randint(0, 2, (batch, 2), generator=gen) * 2 - 1
    vel = torch.randint(1, 3, (batch, 2), generator=gen) * sign
    for t in range(FRAMES):
        for b in range(batch):
            y, x = pos[b].tolist()
            video[b, t, 0, y:y + 4, x:x + 4] = 1.0
        pos = pos + vel
        bounce = (pos < 0) | (pos > SIZE - 4)
        vel = torch.where(bounce, -vel, vel)
        pos = pos.clamp(0, SIZE - 4)
    return video


class ConvGRUCell(nn.Module):
    def __init__(self, in_ch, hid_ch):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 2 * hid_ch, 3, padding=1)
        self.candidate = nn.Conv2d(in_ch + hid_ch, hid_ch, 3, padding=1)

    def forward(self, x, h):
        z, r = torch.sigmoid(self.gates(torch.cat([x, h], 1))).chunk(2, dim=1)
        n = torch.tanh(self.candidate(torch.cat([x, r * h], 1)))
        return (1 - z) * h + z * n


class FramePredictor(nn.Module):
    def __init__(self, hid_ch=12):
        super().__init__()
        self.encoder = nn.Conv2d(1, 8, 3, padding=1)
        self.cell = ConvGRUCell(8, hid_ch)
        self.decoder = nn.Conv2d(hid_ch, 1, 3, padding=1)

    def init_state(self, batch):
        return torch.zeros(batch, self.cell.hid_ch, SIZE, SIZE)

    def forward(self, frame, h):
        h = self.cell(F.relu(self.encoder(frame)), h)
        return torch.sigmoid(self.decoder(h)), h


torch.manual_seed(0)
gen = torch.Generator().manual_seed(2)
model = FramePredictor()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
last_prediction = None
for epoch in range(EPOCHS):
    for clip_idx in range(CLIPS_PER_EPOCH):
        clip = bouncing_square(gen)
        h = model.init_state(clip.size(0))
        frame = clip[:, 0]
        losses = []
        for t in range(1, FRAMES):
            pred, h = model(frame, h)
            if t >= CONTEXT:
                losses.append(F.binary_cross_entropy(pred, clip[:, t]))
            frame = clip[:, t] if t < CONTEXT else pred
        loss = torch.stack(losses).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        last_prediction = pred.detach()
        hit, truth = last_prediction > 0.5, clip[:, -1] > 0.5
        iou = (hit & truth).sum() / (hit | truth).sum().clamp(min=1)
        print(f"epoch {epoch} clip {clip_idx} rollout bce {loss.item():.4f} "
              f"last-frame iou {iou.item():.3f}")
print(f"mean of last prediction {last_prediction.mean().item():.4f}")
print(f"param checksum {sum(p.detach().sum().item() for p in model.parameters()):.6f}")
