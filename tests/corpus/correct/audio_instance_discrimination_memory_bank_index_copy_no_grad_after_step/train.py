"""Non-parametric instance discrimination (Wu et al., 2018) on short sound clips.

Every clip of the dataset is its own class; the "classifier" is a memory bank holding one
feature per clip. The logits of a batch are its features against the whole bank, and after
each step the bank rows of the batch are moved towards the new features (proximal update).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLIPS, N_MELS, FRAMES, DIM, BATCH, TAU, MOMENTUM = 24, 10, 16, 12, 8, 0.1, 0.5


class ClipEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 24, 3, padding=1), nn.BatchNorm1d(24),
                                  nn.ReLU(), nn.Conv1d(24, 24, 3, padding=1), nn.ReLU())
        self.proj = nn.Linear(24, DIM)

    def forward(self, mels):
        return F.normalize(self.proj(self.conv(mels).mean(dim=2)), dim=1)


class MemoryBank(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("features", F.normalize(torch.randn(N_CLIPS, DIM), dim=1))

    def logits(self, f):
        return f @ self.features.t() / TAU

    @torch.no_grad()
    def update(self, idx, f):
        mixed = MOMENTUM * self.features[idx] + (1 - MOMENTUM) * f
        self.features.index_copy_(0, idx, F.normalize(mixed, dim=1))


def augment(mels, generator):
    gain = 1.0 + 0.1 * torch.randn(mels.size(0), 1, 1, generator=generator)
    return gain * mels + 0.05 * torch.randn(mels.shape, generator=generator)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    clips = torch.randn(N_CLIPS, N_MELS, FRAMES, generator=gen)
    encoder, bank = ClipEncoder(), MemoryBank()
    optimizer = torch.optim.SGD(encoder.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    for epoch in range(2):
        order = torch.randperm(N_CLIPS, generator=gen)
        for b in range(0, N_CLIPS, BATCH):
            idx = order[b:b + BATCH]
            f = encoder(augment(clips[idx], gen))
            loss = F.cross_entropy(bank.logits(f), idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            bank.update(idx, f)
            print(f"epoch {epoch} batch {b // BATCH} loss {loss.item():.4f}")
    print(f"bank checksum {bank.features.sum().item():.6f}")
    print(f"param checksum {sum(p.sum().item() for p in encoder.parameters()):.6f}")


if __name__ == "__main__":
    main()
