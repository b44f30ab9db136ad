"""Multi-label sound-event tagging (dog / siren / speech / music) on short log-mel
patches: a small 1-D CNN over time trained with BCE. Each epoch ends with a macro ROC-AUC
over every prediction made during the epoch (metrics.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import macro_roc_auc

torch.manual_seed(0)
N_MELS, FRAMES, N_TAGS, BATCH = 16, 20, 4, 24


class TaggingCNN(nn.Module):
    def __init__(self, channels=24):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, channels, kernel_size=3, padding=1), nn.ReLU(),
            nn.Conv1d(channels, channels, kernel_size=3, padding=1), nn.ReLU())
        self.head = nn.Linear(channels, N_TAGS)

    def forward(self, mel):
        return self.head(self.conv(mel).amax(dim=-1))


def make_batches(n):
    """Each tag adds energy in its own band of mel bins; a clip can carry several tags."""
    batches = []
    for _ in range(n):
        tags = (torch.rand(BATCH, N_TAGS) < 0.35).float()
        mel = 0.3 * torch.randn(BATCH, N_MELS, FRAMES)
        for k in range(N_TAGS):
            band = slice(4 * k, 4 * k + 4)
            mel[:, band] += tags[:, k, None, None] * torch.rand(BATCH, 1, FRAMES)
        batches.append((mel, tags))
    return batches


def train_epoch(model, optimizer, batches):
    epoch_probs, epoch_targets = [], []
    for mel, tags in batches:
        logits = model(mel)
        loss = F.binary_cross_entropy_with_logits(logits, tags)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_probs.append(torch.sigmoid(logits))
        epoch_targets.append(tags)
    return loss.item(), macro_roc_auc(torch.cat(epoch_probs), torch.cat(epoch_targets))


model = TaggingCNN()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
batches = make_batches(4)
for epoch in range(2):
    last_loss, auc = train_epoch(model, optimizer, batches)
    print(f"epoch {epoch} last loss {last_loss:.4f} macro AUC {auc:.3f}")
