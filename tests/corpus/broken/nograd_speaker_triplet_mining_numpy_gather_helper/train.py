"""Speaker embeddings from MFCC-like frame sequences, trained with a batch-hard triplet
loss. Each synthetic speaker has its own spectral profile; utterances are noisy draws."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from mining import batch_hard_triplets, equal_error_proxy

N_SPEAKERS, N_COEFF, FRAMES, EMB = 6, 13, 20, 16
MARGIN = 0.4


class SpeakerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame_net = nn.Sequential(
            nn.Conv1d(N_COEFF, 32, 3, padding=1), nn.ReLU(),
            nn.Conv1d(32, 32, 3, padding=1), nn.ReLU())
        self.proj = nn.Linear(32, EMB)

    def forward(self, mfcc):
        pooled = self.frame_net(mfcc).mean(-1)  # average over frames
        return F.normalize(self.proj(pooled), dim=-1)


def sample_batch(profiles, per_speaker, gen):
    labels = torch.arange(N_SPEAKERS).repeat_interleave(per_speaker)
    drift = torch.randn(len(labels), N_COEFF, FRAMES, generator=gen)
    return profiles[labels].unsqueeze(-1) + 0.8 * drift, labels


def main(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    profiles = 0.3 * torch.randn(N_SPEAKERS, N_COEFF, generator=gen)
    encoder = SpeakerEncoder()
    optimizer = torch.optim.SGD(encoder.parameters(), lr=0.05, momentum=0.9)
    for step in range(steps):
        mfcc, labels = sample_batch(profiles, per_speaker=4, gen=gen)
        emb = encoder(mfcc)
        (anchor, positive, negative), n_hard = batch_hard_triplets(emb, labels, MARGIN)
        loss = F.triplet_margin_loss(anchor, positive, negative, margin=MARGIN)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} triplet {loss.item():.4f} hard {n_hard} "
              f"nn-error {equal_error_proxy(emb, labels):.3f}")
    return loss.item()


if __name__ == "__main__":
    main()
