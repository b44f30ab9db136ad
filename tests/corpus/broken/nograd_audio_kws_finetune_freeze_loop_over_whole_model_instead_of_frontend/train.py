import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)

N_MELS, FRAMES = 20, 24


class ConvFrontend(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.conv1 = nn.Conv1d(N_MELS, channels, 5, padding=2)
        self.conv2 = nn.Conv1d(channels, channels, 3, padding=1)

    def forward(self, mel):
        h = F.relu(self.conv1(mel))
        return F.relu(self.conv2(h)).mean(dim=2)


class KeywordSpotter(nn.Module):
    def __init__(self, n_keywords):
        super().__init__()
        self.frontend = ConvFrontend()
        self.classifier = nn.Linear(8, n_keywords)

    def forward(self, mel):
        return self.classifier(self.frontend(mel))


def pretrained_checkpoint():
    """Stand-in for the 35-keyword checkpoint shipped with the repo."""
    buf = io.BytesIO()
    torch.save(KeywordSpotter(35).state_dict(), buf)
    buf.seek(0)
    return torch.load(buf)


def batch(n=16, n_keywords=4):
    labels = torch.randint(0, n_keywords, (n,))
    mel = torch.randn(n, N_MELS, FRAMES)
    mel[torch.arange(n), labels * 3] += 2.0
    return mel, labels


model = KeywordSpotter(n_keywords=4)
state = {k: v for k, v in pretrained_checkpoint().items() if k.startswith("frontend.")}
model.load_state_dict(state, strict=False)

# keep the pretrained frontend fixed; only the new 4-keyword head is trained
for param in model.parameters():
    param.requires_grad = False

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for step in range(6):
    mel, labels = batch()
    loss = F.cross_entropy(model(mel), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
