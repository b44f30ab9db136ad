"""Multi-label sound-event tagger (CRNN-lite over log-mel frames) with cross-batch embedding
mixup done by a forward hook on the encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from augment import CrossBatchMixup

N_MELS, FRAMES, N_EVENTS, EMB = 16, 24, 5, 32


class EventTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 32, kernel_size=3, padding=1), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 32, kernel_size=3, padding=1), nn.ReLU(),
        )
        self.encoder = nn.Sequential(nn.Linear(32, EMB), nn.Tanh())
        self.classifier = nn.Linear(EMB, N_EVENTS)

    def forward(self, mels):
        feats = self.conv(mels).mean(dim=-1)
        return self.classifier(self.encoder(feats))


def fake_clips(batch):
    mels = torch.randn(batch, N_MELS, FRAMES)
    targets = (torch.rand(batch, N_EVENTS) < 0.3).float()
    mels[:, :4] += 2.0 * targets[:, :1, None]
    return mels, targets


def train(epochs=2, batches_per_epoch=3, batch=8):
    torch.manual_seed(0)
    model = EventTagger()
    mixer = CrossBatchMixup(alpha=0.4)
    model.encoder.register_forward_hook(mixer)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
    data = [fake_clips(batch) for _ in range(batches_per_epoch)]
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for mels, targets in data:
            mixer.set_targets(targets)
            logits = model(mels)
            loss = F.binary_cross_entropy_with_logits(logits, mixer.mixed_targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
            print(f"epoch {epoch} lam {mixer.lam:.3f} loss {loss.item():.4f}")
        print(f"epoch {epoch} mean bce {running / len(data):.4f}")
    model.eval()
    with torch.no_grad():
        probs = torch.sigmoid(model(data[0][0]))
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4),
          "mean prob", round(probs.mean().item(), 4))


if __name__ == "__main__":
    train()
