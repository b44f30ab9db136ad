"""Next-frame prediction on a long synthetic video (a bright blob bouncing in a 12x12
box). Each frame is embedded with a linear patch embedding, a per-channel leaky memory
with learned time constants integrates the embeddings over time, and an MLP decodes the
memory into the next frame. The video is read in clips of four frames and the memory is
carried from clip to clip; retain_graph=True was added when the second clip raised
"Trying to backward through the graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, CLIP, EMB = 12, 4, 48


def bouncing_blob_video(n_frames, gen):
    pos = torch.rand(2, generator=gen) * (SIZE - 1)
    vel = torch.tensor([0.9, 0.6])
    grid = torch.stack(torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij"))
    frames = []
    for _ in range(n_frames):
        pos = pos + vel
        for d in range(2):
            if not 0 <= pos[d] <= SIZE - 1:
                vel[d] = -vel[d]
                pos[d] = pos[d].clamp(0, SIZE - 1)
        dist2 = ((grid - pos[:, None, None]) ** 2).sum(0)
        frames.append(torch.exp(-dist2 / 3.0))
    return torch.stack(frames)  # (T, H, W)


class LeakyMemoryPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(SIZE * SIZE, EMB)
        self.log_tau = nn.Parameter(torch.linspace(0.0, 2.0, EMB))
        self.decode = nn.Sequential(nn.Linear(EMB, 96), nn.GELU(), nn.Linear(96, SIZE * SIZE))

    def forward(self, clip, memory):
        decay = torch.exp(-torch.exp(-self.log_tau))  # per-channel retention in (0, 1)
        preds = []
        for frame in clip:
            feat = F.gelu(self.embed(frame.flatten()))
            memory = decay * memory + (1 - decay) * feat
            preds.append(self.decode(memory).view(SIZE, SIZE))
        return torch.stack(preds), memory


def main(n_clips=8):
    torch.manual_seed(0)
    video = bouncing_blob_video(n_clips * CLIP + 1, torch.Generator().manual_seed(2))
    model = LeakyMemoryPredictor()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    memory = torch.zeros(EMB)
    losses = []
    for i in range(n_clips):
        clip = video[i * CLIP:(i + 1) * CLIP]
        target = video[i * CLIP + 1:(i + 1) * CLIP + 1]
        preds, memory = model(clip, memory.detach())
        loss = F.mse_loss(preds, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        print(f"clip {i} mse {loss.item():.5f}")
    return losses


if __name__ == "__main__":
    losses = main()
    print(f"first/last clip mse {losses[0]:.5f} / {losses[-1]:.5f}")
