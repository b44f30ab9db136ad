"""Local Aggregation (Zhuang et al.) on unlabeled sensor snippets: every sample is pulled
towards its close neighbours (same k-means cluster among its nearest background
neighbours in the memory bank) and pushed from the rest of the background set."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import MemoryBank

N_SAMPLES, IN_DIM, EMB, BATCH, K_BACKGROUND, N_CLUSTERS, TAU = 24, 12, 8, 8, 10, 3, 0.1


class LocalAggTrainer:
    def __init__(self, data):
        self.data = data
        self.encoder = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.memory = MemoryBank(N_SAMPLES, EMB)
        self.optimizer = torch.optim.SGD(self.encoder.parameters(), lr=0.1, momentum=0.9)

    def la_loss(self, z, indices):
        sim = z @ self.memory.bank.t() / TAU
        rows = torch.arange(len(indices))
        others = sim.detach().index_put((rows, indices), torch.tensor(float("-inf")))
        background = others.topk(K_BACKGROUND, dim=1).indices
        close = self.memory.labels[background] == self.memory.labels[indices][:, None]
        # the sample's own memory entry counts as background and as a close neighbour
        back_sim = torch.cat([sim[rows, indices][:, None], sim.gather(1, background)], dim=1)
        close = torch.cat([torch.ones(len(indices), 1, dtype=torch.bool), close], dim=1)
        close_sim = back_sim.masked_fill(~close, float("-inf"))
        return (torch.logsumexp(back_sim, 1) - torch.logsumexp(close_sim, 1)).mean()

    def train_epoch(self, epoch):
        self.memory.recluster(N_CLUSTERS)
        order = torch.randperm(N_SAMPLES)
        for b in range(0, N_SAMPLES, BATCH):
            indices = order[b:b + BATCH]
            z = F.normalize(self.encoder(self.data[indices]), dim=1)
            loss = self.la_loss(z, indices)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.memory.update(indices, z)
            print(f"epoch {epoch} batch {b // BATCH} loss {loss.item():.4f}")


def sensor_snippets():
    """Three underlying motion patterns plus noise."""
    patterns = torch.randn(3, IN_DIM)
    kind = torch.arange(N_SAMPLES) % 3
    return patterns[kind] + 0.4 * torch.randn(N_SAMPLES, IN_DIM)


torch.manual_seed(0)
trainer = LocalAggTrainer(sensor_snippets())
for epoch in range(2):
    trainer.train_epoch(epoch)
