"""Domain-adversarial keyword spotting (DANN): labelled frames from a studio microphone
(source) and unlabelled frames from a phone microphone (target).

A custom autograd.Function reverses the gradient between the shared feature extractor
and the domain classifier. One summed loss, ONE backward, then two optimizers step (the
domain classifier has its own learning rate).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)
N_MELS, FRAMES, N_WORDS, BATCH, STEPS = 12, 10, 3, 16, 8


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(N_MELS, 24, 3, padding=1)
        self.bn = nn.BatchNorm1d(24)
        self.proj = nn.Linear(24, 32)

    def forward(self, mel):
        h = F.relu(self.bn(self.conv(mel)))
        return F.relu(self.proj(h.mean(dim=2)))


features = FeatureExtractor()
word_head = nn.Linear(32, N_WORDS)
domain_head = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
opt_main = torch.optim.SGD(list(features.parameters()) + list(word_head.parameters()), lr=0.05, momentum=0.9)
opt_domain = torch.optim.SGD(domain_head.parameters(), lr=0.1, momentum=0.9)

templates = torch.randn(N_WORDS, N_MELS, 1)


def utterances(n, phone):
    words = torch.randint(0, N_WORDS, (n,))
    mel = templates[words] * torch.linspace(0.5, 1.5, FRAMES) + 0.3 * torch.randn(n, N_MELS, FRAMES)
    if phone:  # band-limited, louder, noisier channel
        mel = mel * torch.linspace(1.5, 0.2, N_MELS).view(1, -1, 1) + 0.8
    return mel, words


for step in range(STEPS):
    progress = step / STEPS
    lambd = 2.0 / (1.0 + math.exp(-10 * progress)) - 1.0

    src_mel, src_words = utterances(BATCH, phone=False)
    tgt_mel, _ = utterances(BATCH, phone=True)
    feats = features(torch.cat([src_mel, tgt_mel]))
    word_loss = F.cross_entropy(word_head(feats[:BATCH]), src_words)
    domain_logits = domain_head(GradReverse.apply(feats, lambd)).squeeze(1)
    domain_labels = torch.cat([torch.zeros(BATCH), torch.ones(BATCH)])
    domain_loss = F.binary_cross_entropy_with_logits(domain_logits, domain_labels)

    loss = word_loss + domain_loss
    opt_main.zero_grad()
    opt_domain.zero_grad()
    loss.backward()
    opt_main.step()
    opt_domain.step()

    with torch.no_grad():
        domain_acc = ((domain_logits > 0).float() == domain_labels).float().mean().item()
    print(f"step {step} lambda {lambd:.3f} word {word_loss.item():.4f} domain {domain_loss.item():.4f} "
          f"domain_acc {domain_acc:.3f}")

features.eval()
with torch.no_grad():
    tgt_mel, tgt_words = utterances(64, phone=True)
    acc = (word_head(features(tgt_mel)).argmax(1) == tgt_words).float().mean().item()
print(f"target accuracy {acc:.3f}")
print(f"checksum {sum(p.sum().item() for m in (features, word_head, domain_head) for p in m.parameters()):.4f}")
