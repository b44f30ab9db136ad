"""Frame-level sound event tagging on synthetic variable-length clips. Several in-place
operations appear in the forward pass; each writes a tensor autograd has not saved:
- the log-mel input is normalised in place (it does not require grad),
- the conv output gets the positional bias added in place (conv saves its input, not its output),
- the residual sum after BatchNorm is accumulated in place (BatchNorm saves its input),
- padded frames of the classifier logits are filled in place before log_softmax."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_MELS, MAX_FRAMES, N_EVENTS = 16, 40, 4
PROFILES = torch.randn(N_EVENTS, N_MELS)


def make_batch(n=12):
    lengths = torch.randint(20, MAX_FRAMES + 1, (n,))
    labels = torch.randint(0, N_EVENTS, (n, MAX_FRAMES))
    mels = PROFILES[labels].transpose(1, 2) + 0.7 * torch.randn(n, N_MELS, MAX_FRAMES)
    pad = torch.arange(MAX_FRAMES)[None] >= lengths[:, None]
    mels.masked_fill_(pad[:, None, :], 0.0)
    labels[pad] = -100
    return mels, labels, pad


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv1d(ch, ch, 3, padding=1)
        self.bn = nn.BatchNorm1d(ch)

    def forward(self, x):
        out = self.bn(self.conv(x))
        out += x
        return F.relu(out)


class EventTagger(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.stem = nn.Conv1d(N_MELS, ch, 5, padding=2)
        self.pos_bias = nn.Parameter(torch.zeros(ch, MAX_FRAMES))
        self.blocks = nn.Sequential(ResBlock(ch), ResBlock(ch))
        self.head = nn.Conv1d(ch, N_EVENTS, 1)

    def forward(self, mels, pad):
        mels = mels.clone()
        mean, std = mels.mean((0, 2), keepdim=True), mels.std((0, 2), keepdim=True)
        mels.sub_(mean).div_(std + 1e-5)
        h = self.stem(mels)
        h.add_(self.pos_bias)
        logits = self.head(self.blocks(h)).transpose(1, 2)
        logits.masked_fill_(pad[..., None], 0.0)
        return F.log_softmax(logits, -1)


model = EventTagger()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(6):
    mels, labels, pad = make_batch()
    log_probs = model(mels, pad)
    loss = F.nll_loss(log_probs.reshape(-1, N_EVENTS), labels.reshape(-1), ignore_index=-100)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    valid = labels != -100
    acc = (log_probs.argmax(-1) == labels)[valid].float().mean().item()
    print(f"step {step} loss {loss.item():.4f} frame acc {acc:.3f}")
print(f"checksum {sum(p.detach().abs().sum().item() for p in model.parameters()):.4f}")
