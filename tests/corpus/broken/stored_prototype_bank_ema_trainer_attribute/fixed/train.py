"""Classifier with a class-prototype bank: besides the linear head, each feature is pulled
towards an exponential moving average of its class's features (prototypes kept on the
trainer), which regularises the embedding for nearest-prototype inference."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, IN_DIM, EMB = 4, 16, 8


class ProtoTrainer:
    def __init__(self, momentum=0.9, proto_weight=0.5):
        self.encoder = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.head = nn.Linear(EMB, N_CLASSES)
        params = list(self.encoder.parameters()) + list(self.head.parameters())
        self.optimizer = torch.optim.Adam(params, lr=3e-3)
        self.prototypes = torch.zeros(N_CLASSES, EMB)
        self.momentum = momentum
        self.proto_weight = proto_weight

    def update_prototypes(self, feats, labels):
        onehot = F.one_hot(labels, N_CLASSES).float()
        counts = onehot.sum(0)
        batch_means = (onehot.t() @ feats.detach()) / counts.clamp_min(1)[:, None]
        blended = self.momentum * self.prototypes + (1 - self.momentum) * batch_means
        self.prototypes = torch.where(counts[:, None] > 0, blended, self.prototypes)

    def train_step(self, x, y):
        feats = self.encoder(x)
        dists = torch.cdist(feats, self.prototypes) ** 2
        loss = F.cross_entropy(self.head(feats), y) + self.proto_weight * F.cross_entropy(-dists, y)
        self.update_prototypes(feats, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def make_data(n):
    y = torch.randint(0, N_CLASSES, (n,))
    centres = torch.randn(N_CLASSES, IN_DIM) * 2
    return centres[y] + torch.randn(n, IN_DIM), y


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = make_data(96)
    trainer = ProtoTrainer()
    for epoch in range(2):
        for start in range(0, 96, 24):
            loss = trainer.train_step(x[start:start + 24], y[start:start + 24])
        print(f"epoch {epoch} loss {loss:.4f}")
