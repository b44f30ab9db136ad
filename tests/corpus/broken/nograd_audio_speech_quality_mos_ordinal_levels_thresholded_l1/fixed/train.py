"""Speech-quality prediction: a small CNN reads a log-mel patch of a degraded utterance and
predicts its mean opinion score (MOS 1..5) as an ordinal label with CORAL-style cumulative
logits P(MOS > k). The script optimises the L1 error of the predicted MOS directly, since
MAE is the number reported in the listening-test comparison."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(13)
N_MELS, FRAMES, N_LEVELS = 16, 20, 5


class MOSNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 24, 3, padding=1), nn.ReLU(),
                                  nn.Conv1d(24, 24, 3, padding=1), nn.ReLU())
        self.score = nn.Linear(24, 1, bias=False)
        self.level_bias = nn.Parameter(torch.linspace(1.0, -1.0, N_LEVELS - 1))

    def forward(self, mel):
        pooled = self.conv(mel).mean(dim=2)
        return self.score(pooled) + self.level_bias        # (batch, N_LEVELS - 1)


def degraded_utterances(n):
    mos = torch.randint(1, N_LEVELS + 1, (n,)).float()
    noise_level = (N_LEVELS + 1 - mos) / N_LEVELS
    clean = torch.sin(torch.linspace(0, 6.28, FRAMES)).expand(n, N_MELS, FRAMES)
    mel = clean + noise_level.view(n, 1, 1) * torch.randn(n, N_MELS, FRAMES)
    return mel, mos


mel, mos = degraded_utterances(120)
loader = DataLoader(TensorDataset(mel, mos), batch_size=40, shuffle=False)
model = MOSNet()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(2):
    for batch_mel, batch_mos in loader:
        level_logits = model(batch_mel)
        pred_mos = 1 + torch.sigmoid(level_logits).sum(dim=1)
        loss = F.l1_loss(pred_mos, batch_mos)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} mos mae {loss.item():.4f}")

with torch.no_grad():
    probs = torch.sigmoid(model(mel))
print(f"mean P(MOS>k) {[round(p, 4) for p in probs.mean(0).tolist()]}")
