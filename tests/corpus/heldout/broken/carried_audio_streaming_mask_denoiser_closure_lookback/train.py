"""Streaming spectral-mask speech denoiser trained chunk by chunk, exactly as it runs on the
device: a causal temporal convolution needs the last CONTEXT frames of the previous chunk's
frontend features, which the training-step closure keeps between calls."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_BINS, FEAT, CONTEXT, CHUNK = 16, 24, 2, 5


class MaskDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = nn.Sequential(nn.Linear(N_BINS, FEAT), nn.ReLU())
        self.temporal = nn.Conv1d(FEAT, FEAT, kernel_size=CONTEXT + 1)
        self.mask_head = nn.Linear(FEAT, N_BINS)

    def mask_from(self, padded_feats):
        h = self.temporal(padded_feats.transpose(1, 2)).transpose(1, 2)
        return torch.sigmoid(self.mask_head(F.relu(h)))


def make_stream_trainer(model, optimizer):
    lookback = None

    def train_chunk(noisy_mag, clean_mag):
        nonlocal lookback
        feats = model.frontend(torch.log1p(noisy_mag))
        if lookback is None:
            lookback = torch.zeros(noisy_mag.size(0), CONTEXT, FEAT)
        mask = model.mask_from(torch.cat([lookback, feats], dim=1))
        loss = F.l1_loss(mask * noisy_mag, clean_mag)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        lookback = feats[:, -CONTEXT:]
        return loss.item()

    return train_chunk


def synth_utterances(batch=4, frames=CHUNK * 5):
    t = torch.arange(frames, dtype=torch.float32)
    harmonics = torch.zeros(batch, frames, N_BINS)
    for b in range(batch):
        f0 = 2 + b
        harmonics[b, :, f0::f0 + 2] = 1.0 + 0.5 * torch.sin(0.3 * t + b)[:, None]
    noise = 0.4 * torch.rand(batch, frames, N_BINS)
    return harmonics + noise, harmonics


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MaskDenoiser()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    noisy, clean = synth_utterances()
    step = make_stream_trainer(model, optimizer)
    for i in range(noisy.size(1) // CHUNK):
        sl = slice(i * CHUNK, (i + 1) * CHUNK)
        loss = step(noisy[:, sl], clean[:, sl])
        print(f"chunk {i}: l1 {loss:.4f}")
