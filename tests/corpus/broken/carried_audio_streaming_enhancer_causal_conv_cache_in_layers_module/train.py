"""Train a small causal speech enhancer (spectral mask estimator) in streaming mode.

Noisy log-magnitude frames go in, a [0, 1] mask per frequency bin comes out. Utterances are
cut into chunks of CHUNK frames and the model is trained chunk by chunk, exactly as it runs on
device, with the convolution caches carrying context across chunk boundaries.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import GatedResidualBlock, StreamingCausalConv1d, reset_streams

N_BINS, CHANNELS, CHUNK, N_CHUNKS, BATCH = 16, 24, 8, 4, 3


class StreamingEnhancer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = StreamingCausalConv1d(N_BINS, CHANNELS, kernel_size=3)
        self.blocks = nn.ModuleList(
            [GatedResidualBlock(CHANNELS, kernel_size=3, dilation=d) for d in (1, 2)])
        self.out = nn.Conv1d(CHANNELS, N_BINS, 1)

    def forward(self, noisy_logmag):
        h = F.relu(self.inp(noisy_logmag))
        for block in self.blocks:
            h = block(h)
        return torch.sigmoid(self.out(h))


def make_batch(batch, frames):
    clean = torch.rand(batch, N_BINS, frames).pow(2) * 3.0
    noise = torch.rand(batch, N_BINS, frames) * 0.8
    noisy = clean + noise
    ideal_mask = (clean / noisy).clamp(0, 1)
    return torch.log1p(noisy), noisy, clean, ideal_mask


def main():
    torch.manual_seed(0)
    model = StreamingEnhancer()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    log_noisy, noisy, clean, _ = make_batch(BATCH, CHUNK * N_CHUNKS)
    reset_streams(model)
    for c in range(N_CHUNKS):
        sl = slice(c * CHUNK, (c + 1) * CHUNK)
        mask = model(log_noisy[..., sl])
        enhanced = mask * noisy[..., sl]
        loss = F.l1_loss(enhanced, clean[..., sl])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"chunk {c} frames {(c + 1) * CHUNK} l1 {loss.item():.4f}")


if __name__ == "__main__":
    main()
