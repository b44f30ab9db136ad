"""Deep embedded clustering (DEC) of machine-sensor windows: an encoder maps each window to a
small code, a ClusteringLayer keeps learnable centroids and produces Student-t soft
assignments, and training sharpens them with KL(P || Q). The centroids are seeded with a
few k-means iterations on the codes of the first batch, as the DEC paper does."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLUSTERS, IN_DIM, CODE, BATCH, STEPS = 3, 12, 4, 48, 6


class ClusteringLayer(nn.Module):
    def __init__(self, n_clusters, dim, alpha=1.0):
        super().__init__()
        self.alpha = alpha
        self.centers = nn.Parameter(0.1 * torch.randn(n_clusters, dim))

    def init_from_kmeans(self, codes, iters=8):
        centers = codes[torch.randperm(codes.shape[0])[: self.centers.shape[0]]].clone()
        for _ in range(iters):
            assign = torch.cdist(codes, centers).argmin(dim=1)
            for k in range(centers.shape[0]):
                members = codes[assign == k]
                if len(members):
                    centers[k] = members.mean(dim=0)
        self.centers = nn.Parameter(centers)

    def forward(self, z):
        d2 = torch.cdist(z, self.centers).pow(2)
        q = (1.0 + d2 / self.alpha).pow(-(self.alpha + 1.0) / 2.0)
        return q / q.sum(dim=1, keepdim=True)


class DEC(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(IN_DIM, 16), nn.ReLU(), nn.Linear(16, CODE))
        self.cluster = ClusteringLayer(N_CLUSTERS, CODE)

    def forward(self, x):
        return self.cluster(self.encoder(x))


def target_distribution(q):
    weight = q.pow(2) / q.sum(dim=0)
    return weight / weight.sum(dim=1, keepdim=True)


class DECTrainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.lr = lr
        self.optimizer = None
        self.seeded = False

    def fit_batch(self, x):
        if not self.seeded:
            with torch.no_grad():
                self.model.cluster.init_from_kmeans(self.model.encoder(x))
            self.seeded = True
            # the k-means seeding replaced the centroid Parameter: build the optimizer now
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9)
        q = self.model(x)
        p = target_distribution(q).detach()
        loss = F.kl_div(q.log(), p, reduction="batchmean")
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def sensor_windows(n):
    """Three operating regimes of a pump: idle, nominal, cavitating."""
    regime = torch.randint(0, N_CLUSTERS, (n,))
    prototypes = torch.tensor([[0.0] * IN_DIM, [1.5] * IN_DIM, [-1.0, 2.0] * (IN_DIM // 2)])
    return prototypes[regime] + 0.3 * torch.randn(n, IN_DIM)


trainer = DECTrainer(DEC())
for step in range(STEPS):
    print(f"step {step} kl {trainer.fit_batch(sensor_windows(BATCH)):.5f}")
print(f"centroid checksum {trainer.model.cluster.centers.sum().item():.4f}")
