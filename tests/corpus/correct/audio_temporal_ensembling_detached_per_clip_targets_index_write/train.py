"""Semi-supervised sound-event tagging with temporal ensembling (Laine & Aila, 2017).

A per-clip ensemble Z of past predictions is kept for the whole training set and updated by
an index write after each batch; the unsupervised loss pulls the current prediction towards
the bias-corrected ensemble. Only a third of the clips are labelled."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLIPS, N_MELS, FRAMES, N_EVENTS, BATCH = 60, 12, 16, 4, 20
ALPHA, W_MAX = 0.6, 2.0


def make_clips():
    events = torch.randint(0, N_EVENTS, (N_CLIPS,))
    bands = torch.zeros(N_CLIPS, N_MELS, 1)
    bands[torch.arange(N_CLIPS), events * 3] = 2.0
    clips = bands * torch.rand(N_CLIPS, 1, FRAMES) + 0.5 * torch.randn(N_CLIPS, N_MELS, FRAMES)
    labelled = torch.zeros(N_CLIPS, dtype=torch.bool)
    labelled[::3] = True
    return clips, events, labelled


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 16, 3, padding=1), nn.ReLU(),
                                  nn.Dropout(0.2), nn.Conv1d(16, 16, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(16, N_EVENTS)

    def forward(self, x):
        return self.head(self.conv(x).amax(-1))


class Ensemble:
    def __init__(self):
        self.Z = torch.zeros(N_CLIPS, N_EVENTS)
        self.epochs = 0

    def targets(self, index):
        return self.Z[index] / (1 - ALPHA ** max(self.epochs, 1))

    @torch.no_grad()
    def update(self, index, probs):
        self.Z[index] = ALPHA * self.Z[index] + (1 - ALPHA) * probs


def train(epochs=4):
    torch.manual_seed(0)
    clips, events, labelled = make_clips()
    model, ens = Tagger(), Ensemble()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        w_unsup = W_MAX * min(1.0, epoch / 2)
        order = torch.randperm(N_CLIPS)
        for start in range(0, N_CLIPS, BATCH):
            index = order[start:start + BATCH]
            logits = model(clips[index])
            probs = logits.softmax(-1)
            mask = labelled[index]
            sup = F.cross_entropy(logits[mask], events[index][mask])
            unsup = F.mse_loss(probs, ens.targets(index)) if epoch > 0 else probs.sum() * 0
            loss = sup + w_unsup * unsup
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ens.update(index, probs)
        ens.epochs += 1
        with torch.no_grad():
            model.eval()
            acc = (model(clips).argmax(-1) == events)[~labelled].float().mean().item()
            model.train()
        print(f"epoch {epoch}: sup {sup.item():.4f} unsup {unsup.item():.5f} "
              f"unlabelled acc {acc:.3f}")
    print(f"ensemble mass {ens.Z.sum().item():.4f} "
          f"checksum {sum(p.sum() for p in model.parameters()).item():.6f}")


if __name__ == "__main__":
    train()
