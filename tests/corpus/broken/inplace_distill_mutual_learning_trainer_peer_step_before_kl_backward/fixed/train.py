"""Deep mutual learning on synthetic sensor windows: two peer classifiers are trained side
by side, each on the labels plus a KL term pulling it towards the other's softened output."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, N_CLASSES, TEMPERATURE = 24, 4, 2.0


class Peer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(N_FEATURES, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.classifier = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):
        return self.classifier(self.body(x))


def mimicry_loss(logits, peer_logits):
    """KL(peer || self) on temperature-softened distributions, scaled by T^2."""
    log_p = F.log_softmax(logits / TEMPERATURE, dim=1)
    q = F.softmax(peer_logits / TEMPERATURE, dim=1)
    return F.kl_div(log_p, q, reduction="batchmean") * TEMPERATURE ** 2


class MutualTrainer:
    def __init__(self, peers, lr=0.05):
        self.peers = peers
        self.optimizers = [torch.optim.SGD(p.parameters(), lr=lr, momentum=0.9) for p in peers]
        self.history = []

    def train_step(self, x, y):
        logits_a = self.peers[0](x)
        logits_b = self.peers[1](x)

        loss_a = F.cross_entropy(logits_a, y) + mimicry_loss(logits_a, logits_b.detach())
        self.optimizers[0].zero_grad()
        loss_a.backward()
        self.optimizers[0].step()

        loss_b = F.cross_entropy(logits_b, y) + mimicry_loss(logits_b, logits_a.detach())
        self.optimizers[1].zero_grad()
        loss_b.backward()
        self.optimizers[1].step()

        self.history.append((loss_a.item(), loss_b.item()))
        return self.history[-1]

    def fit(self, batches):
        for step, (x, y) in enumerate(batches):
            la, lb = self.train_step(x, y)
            print(f"step {step} peer_a {la:.4f} peer_b {lb:.4f}")


def make_batches(n_batches=5, batch_size=32):
    centers = torch.randn(N_CLASSES, N_FEATURES) * 1.5
    batches = []
    for _ in range(n_batches):
        y = torch.randint(0, N_CLASSES, (batch_size,))
        x = centers[y] + torch.randn(batch_size, N_FEATURES)
        batches.append((x, y))
    return batches


if __name__ == "__main__":
    trainer = MutualTrainer([Peer(hidden=48), Peer(hidden=32)])
    trainer.fit(make_batches())
