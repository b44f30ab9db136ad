"""Deep Mutual Learning (Zhang et al., 2018) with two small peers on a synthetic 5-class task:
peer 1 learns from the labels and from peer 2's (detached) predictions and steps; then peer 1's
predictions are recomputed with its updated weights, under no_grad, to teach peer 2, which
steps in turn."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, N_CLASSES, BATCH = 16, 5, 32


class Peer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU(), nn.Linear(hidden, N_CLASSES))

    def forward(self, x):
        return self.net(x)


def mutual_loss(logits, peer_logits, labels):
    kl = F.kl_div(F.log_softmax(logits, 1), F.softmax(peer_logits, 1), reduction="batchmean")
    return F.cross_entropy(logits, labels) + kl, kl


torch.manual_seed(0)
w = torch.randn(IN_DIM, N_CLASSES)
peer1, peer2 = Peer(32), Peer(24)
opt1 = torch.optim.SGD(peer1.parameters(), lr=0.1, momentum=0.9)
opt2 = torch.optim.SGD(peer2.parameters(), lr=0.1, momentum=0.9)

for step in range(6):
    x = torch.randn(BATCH, IN_DIM)
    y = (x @ w).argmax(1)
    logits1, logits2 = peer1(x), peer2(x)

    loss1, kl1 = mutual_loss(logits1, logits2.detach(), y)
    opt1.zero_grad()
    loss1.backward()
    opt1.step()

    with torch.no_grad():
        logits1 = peer1(x)
    loss2, kl2 = mutual_loss(logits2, logits1, y)
    opt2.zero_grad()
    loss2.backward()
    opt2.step()

    agree = (logits1.argmax(1) == logits2.argmax(1)).float().mean().item()
    print(f"step {step}: peer1 {loss1.item():.4f} (kl {kl1.item():.4f}) "
          f"peer2 {loss2.item():.4f} (kl {kl2.item():.4f}) agreement {agree:.3f}")

for name, peer in (("peer1", peer1), ("peer2", peer2)):
    print(f"{name} checksum {sum(p.sum().item() for p in peer.parameters()):.4f}")
