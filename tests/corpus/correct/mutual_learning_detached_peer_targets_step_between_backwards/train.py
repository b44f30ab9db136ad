"""Deep mutual learning with two small CNN peers on synthetic 12x12 glyph images. Each
peer is updated right after its own backward; its mimicry target is the other peer's
prediction, detached, so the next peer's backward never runs through updated weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, SIDE, T = 3, 12, 3.0


def make_peer(width):
    return nn.Sequential(
        nn.Conv2d(1, width, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
        nn.Conv2d(width, width, 3, padding=1), nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d(2), nn.Flatten(),
        nn.Linear(4 * width, N_CLASSES),
    )


def glyphs(n):
    y = torch.randint(0, N_CLASSES, (n,))
    img = 0.3 * torch.randn(n, 1, SIDE, SIDE)
    for i, c in enumerate(y.tolist()):
        if c == 0:
            img[i, 0, SIDE // 2, :] += 1.5       # horizontal stroke
        elif c == 1:
            img[i, 0, :, SIDE // 2] += 1.5       # vertical stroke
        else:
            img[i, 0].diagonal().add_(1.5)       # diagonal stroke
    return img, y


def kl_to(peer_logits, logits):
    return F.kl_div(F.log_softmax(logits / T, dim=1), F.softmax(peer_logits / T, dim=1),
                    reduction="batchmean") * T * T


peers = nn.ModuleList([make_peer(8), make_peer(6)])
optimizers = [torch.optim.SGD(p.parameters(), lr=0.05, momentum=0.9, nesterov=True) for p in peers]

for step in range(6):
    x, y = glyphs(48)
    logits = [peer(x) for peer in peers]
    losses = []
    for k, (opt, own) in enumerate(zip(optimizers, logits)):
        other = logits[1 - k].detach()
        loss = F.cross_entropy(own, y) + kl_to(other, own)
        opt.zero_grad()
        loss.backward()
        opt.step()          # peer k changes here; the other peer's graph does not include it
        losses.append(loss.item())
    acc = [(l.argmax(1) == y).float().mean().item() for l in logits]
    print(f"step {step} losses {losses[0]:.4f} {losses[1]:.4f} acc {acc[0]:.3f} {acc[1]:.3f}")

for k, peer in enumerate(peers):
    print(f"checksum peer{k} {sum(p.sum().item() for p in peer.parameters()):.6f}")
