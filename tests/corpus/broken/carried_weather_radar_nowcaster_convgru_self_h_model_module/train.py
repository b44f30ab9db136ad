"""Train a radar nowcaster frame by frame on short synthetic storm sequences."""
import torch
import torch.nn.functional as F

from model import RadarNowcaster

torch.manual_seed(0)
SIZE = 12


def storm_sequences(n_seq, steps, size=SIZE):
    """Yields (steps + 1, 1, 1, size, size) stacks of a drifting rain cell."""
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    for _ in range(n_seq):
        cy, cx = torch.randint(3, size - 3, (2,)).tolist()
        vy, vx = torch.randint(-1, 2, (2,)).tolist()
        frames = []
        for t in range(steps + 1):
            d2 = (yy - cy - vy * t) ** 2 + (xx - cx - vx * t) ** 2
            frames.append(torch.exp(-d2.float() / 6.0)[None, None])
        yield torch.stack(frames)


model = RadarNowcaster(hid_ch=6)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for seq_idx, seq in enumerate(storm_sequences(n_seq=2, steps=4)):
    model.reset(batch=1, height=SIZE, width=SIZE)
    for t in range(seq.shape[0] - 1):
        pred = model(seq[t])
        loss = F.mse_loss(pred, seq[t + 1])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"seq {seq_idx} step {t} mse {loss.item():.5f}")
