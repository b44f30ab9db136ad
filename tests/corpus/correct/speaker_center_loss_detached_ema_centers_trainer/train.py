"""Speaker embedding network trained with softmax + center loss. The class centers are a
memory bank kept on the trainer and carried from step to step; they are updated as an EMA
of the batch's per-speaker mean embedding, taken from feats.detach(), so the bank holds
values and never a graph. The update runs before backward and is out of place, so the
centers the loss read (and cdist saved) stay untouched."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
N_SPEAKERS, N_MELS, FRAMES, EMB = 5, 16, 20, 12


class SpeakerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 24, 3, padding=1), nn.ReLU(),
                                  nn.Conv1d(24, 24, 3, padding=1), nn.ReLU())
        self.proj = nn.Linear(24, EMB)

    def forward(self, mel):
        return self.proj(self.conv(mel).mean(-1))


class CenterLossTrainer:
    def __init__(self, momentum=0.8, center_weight=0.1):
        self.encoder = SpeakerEncoder()
        self.classifier = nn.Linear(EMB, N_SPEAKERS)
        params = list(self.encoder.parameters()) + list(self.classifier.parameters())
        self.optimizer = torch.optim.Adam(params, lr=3e-3)
        self.centers = torch.zeros(N_SPEAKERS, EMB)
        self.momentum = momentum
        self.center_weight = center_weight

    def step(self, mel, speaker):
        feats = self.encoder(mel)
        ce = F.cross_entropy(self.classifier(feats), speaker)
        center = torch.cdist(feats, self.centers).gather(1, speaker[:, None]).pow(2).mean()
        loss = ce + self.center_weight * center

        onehot = F.one_hot(speaker, N_SPEAKERS).float()
        counts = onehot.sum(0)[:, None]
        batch_means = onehot.t() @ feats.detach() / counts.clamp_min(1)
        blended = self.momentum * self.centers + (1 - self.momentum) * batch_means
        self.centers = torch.where(counts > 0, blended, self.centers)

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return ce.item(), center.item()


def utterances(n):
    speaker = torch.randint(0, N_SPEAKERS, (n,))
    timbre = torch.randn(N_SPEAKERS, N_MELS)[speaker]
    return timbre[:, :, None] + 0.5 * torch.randn(n, N_MELS, FRAMES), speaker


trainer = CenterLossTrainer()
mel, speaker = utterances(80)
for epoch in range(2):
    for start in range(0, 80, 20):
        ce, center = trainer.step(mel[start:start + 20], speaker[start:start + 20])
        print(f"epoch {epoch} batch {start // 20} ce {ce:.6f} center {center:.6f}")
params = list(trainer.encoder.parameters()) + list(trainer.classifier.parameters())
print(f"checksum {sum(p.sum().item() for p in params):.6f} centers {trainer.centers.sum().item():.6f}")
