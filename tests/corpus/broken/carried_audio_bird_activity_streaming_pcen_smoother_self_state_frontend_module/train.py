"""Bird-call activity detection on long field recordings, trained chunk by chunk the way the
detector runs on the recorder: PCEN front-end, a small temporal CNN, and a per-frame
"call present" logit."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from frontend import StreamingPCEN

N_BANDS, CHUNK, N_CHUNKS, BATCH = 16, 12, 4, 3


class CallDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.pcen = StreamingPCEN(N_BANDS)
        self.conv = nn.Sequential(
            nn.Conv1d(N_BANDS, 24, kernel_size=3, padding=1), nn.ReLU(),
            nn.Conv1d(24, 24, kernel_size=3, padding=1), nn.ReLU())
        self.frame_head = nn.Conv1d(24, 1, kernel_size=1)

    def forward(self, energy):
        feats = self.pcen(energy).transpose(1, 2)
        return self.frame_head(self.conv(feats)).squeeze(1)


def synthetic_recordings(generator):
    """Background noise with a slowly drifting gain plus band-limited chirps where labels are 1."""
    frames = CHUNK * N_CHUNKS
    gain = torch.linspace(0.5, 2.0, frames).view(1, frames, 1)
    energy = torch.rand(BATCH, frames, N_BANDS, generator=generator) * gain + 0.05
    labels = (torch.rand(BATCH, frames, generator=generator) < 0.25).float()
    energy[..., 6:10] += 3.0 * labels.unsqueeze(-1)
    return energy, labels


def train(model, optimizer, recordings):
    for rec, (energy, labels) in enumerate(recordings):
        model.pcen.reset_stream()
        for c in range(N_CHUNKS):
            window = slice(c * CHUNK, (c + 1) * CHUNK)
            logits = model(energy[:, window])
            loss = F.binary_cross_entropy_with_logits(logits, labels[:, window])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"recording batch {rec} chunk {c} bce {loss.item():.4f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    recordings = [synthetic_recordings(gen) for _ in range(2)]
    model = CallDetector()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train(model, optimizer, recordings)


if __name__ == "__main__":
    main()
