"""Speaker-embedding training (softmax over training speakers) on synthetic
MFCC-like frames, with a running pairwise EER as a sanity check."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import TrialScoreTracker

N_SPEAKERS, N_MFCC, FRAMES = 6, 13, 20


class XVectorLite(nn.Module):
    def __init__(self, emb_dim=16):
        super().__init__()
        self.tdnn1 = nn.Conv1d(N_MFCC, 32, 3, padding=1)
        self.tdnn2 = nn.Conv1d(32, 32, 3, dilation=2, padding=2)
        self.embed = nn.Linear(64, emb_dim)
        self.classifier = nn.Linear(emb_dim, N_SPEAKERS)

    def forward(self, mfcc):
        h = F.relu(self.tdnn1(mfcc))
        h = F.relu(self.tdnn2(h))
        stats = torch.cat([h.mean(dim=2), h.std(dim=2)], dim=1)
        emb = self.embed(stats)
        return emb, self.classifier(emb)


def utterances(speaker_means, n):
    spk = torch.randint(0, N_SPEAKERS, (n,))
    mfcc = speaker_means[spk][:, :, None] + torch.randn(n, N_MFCC, FRAMES)
    return mfcc, spk


def train(steps=10):
    torch.manual_seed(0)
    speaker_means = 1.5 * torch.randn(N_SPEAKERS, N_MFCC)
    model = XVectorLite()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    tracker = TrialScoreTracker()
    for step in range(steps):
        mfcc, spk = utterances(speaker_means, 16)
        emb, logits = model(mfcc)
        loss = F.cross_entropy(logits, spk)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        unit = F.normalize(emb, dim=1)
        pairs = torch.triu_indices(len(spk), len(spk), offset=1)
        cosine = (unit[pairs[0]] * unit[pairs[1]]).sum(dim=1)
        tracker.update(cosine, spk[pairs[0]] == spk[pairs[1]])
        if step % 5 == 4:
            print(f"step {step} loss {loss.item():.4f} running EER {tracker.eer():.3f}")
        else:
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
