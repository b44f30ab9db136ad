"""Sleep staging (W, N1, N2, N3, REM) from single-channel EEG, trained on one
night streamed epoch by epoch so the GRU keeps the night's context."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from streaming import StreamState, advance

STAGES = ["W", "N1", "N2", "N3", "REM"]
FS, SUB = 50, 10  # 50 Hz EEG, pooled to 10 sub-windows per 30 s epoch


class EpochStager(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.feature = nn.Conv1d(1, 8, kernel_size=25, stride=5)
        self.rnn = nn.GRU(8, hidden, batch_first=True)
        self.out = nn.Linear(hidden, len(STAGES))

    def forward(self, window, hidden=None):
        f = F.relu(self.feature(window.unsqueeze(1)))
        f = F.adaptive_avg_pool1d(f, SUB).transpose(1, 2)
        seq, hidden = self.rnn(f, hidden)
        return self.out(seq[:, -1]), hidden


def synthetic_night(n_epochs, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(30 * FS) / FS
    stage = 0
    for _ in range(n_epochs):
        if torch.rand(1, generator=g).item() < 0.4:
            stage = int(torch.randint(0, len(STAGES), (1,), generator=g))
        rhythm = torch.sin(2 * torch.pi * (2.0 + 2.5 * stage) * t)
        eeg = rhythm + 0.5 * torch.randn(t.shape, generator=g)
        yield eeg.unsqueeze(0), torch.tensor([stage])


def main():
    torch.manual_seed(0)
    model = EpochStager()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    state = StreamState()
    for i, (window, stage) in enumerate(synthetic_night(8)):
        logits = advance(model, state, window)
        loss = F.cross_entropy(logits, stage)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {i} stage {STAGES[stage.item()]} loss {loss.item():.4f}")
    print("predicted stage counts", dict(sorted(state.stage_counts.items())))


if __name__ == "__main__":
    main()
