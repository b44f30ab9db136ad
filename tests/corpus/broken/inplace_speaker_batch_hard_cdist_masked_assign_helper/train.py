"""Speaker-embedding training on synthetic log-mel segments: a small 1-D conv encoder, P
speakers x K utterances per batch, batch-hard triplet loss from mining.py."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from mining import batch_hard_triplet_loss, fraction_active

N_MELS, FRAMES, EMB_DIM = 20, 40, 16
P_SPEAKERS, K_UTTS = 8, 4


class SpeakerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame_net = nn.Sequential(
            nn.Conv1d(N_MELS, 32, kernel_size=5, padding=2), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 32, kernel_size=3, padding=1), nn.BatchNorm1d(32), nn.ReLU(),
        )
        self.proj = nn.Linear(64, EMB_DIM)

    def forward(self, mels):
        h = self.frame_net(mels)
        stats = torch.cat([h.mean(dim=2), h.std(dim=2)], dim=1)  # statistics pooling
        return F.normalize(self.proj(stats), dim=1)


def sample_batch(voices):
    speakers = torch.randperm(len(voices))[:P_SPEAKERS].repeat_interleave(K_UTTS)
    noise = 0.8 * torch.randn(len(speakers), N_MELS, FRAMES)
    mels = voices[speakers][:, :, None] + noise
    return mels, speakers


def main(steps=5):
    torch.manual_seed(0)
    voices = torch.randn(20, N_MELS)  # one spectral "timbre" per speaker
    encoder = SpeakerEncoder()
    optimizer = torch.optim.Adam(encoder.parameters(), lr=3e-3)
    for step in range(steps):
        mels, speakers = sample_batch(voices)
        emb = encoder(mels)
        loss = batch_hard_triplet_loss(emb, speakers)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} triplet {loss.item():.4f} active {fraction_active(emb, speakers):.2f}")
    return loss.item()


if __name__ == "__main__":
    main()
