"""One-class Deep SVDD on sensor telemetry: map normal machine readings close to a fixed
center c in feature space; at test time the squared distance to c is the anomaly score.

As in the paper, c is the mean of the initial network outputs on (part of) the training
data, and the network has no bias terms so that it cannot collapse onto c trivially.
"""
import torch
import torch.nn as nn

N_SENSORS, REP_DIM, BATCH, EPS = 10, 8, 16, 0.1


class TelemetryEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_SENSORS, 32, bias=False), nn.LeakyReLU(),
                                 nn.Linear(32, REP_DIM, bias=False))

    def forward(self, x):
        return self.net(x)


class DeepSVDDTrainer:
    def __init__(self, net, lr=1e-3, weight_decay=1e-5):
        self.net = net
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
        self.c = None

    def init_center(self, batches):
        outputs = torch.cat([self.net(x) for x in batches])
        c = outputs.mean(dim=0)
        # keep every coordinate of c away from zero, where a zero weight maps trivially
        c = torch.where(c.abs() < EPS, torch.where(c < 0, -EPS, EPS), c)
        self.c = c

    def train_step(self, x):
        dist = ((self.net(x) - self.c) ** 2).sum(dim=1)
        loss = dist.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def score(self, x):
        with torch.no_grad():
            return ((self.net(x) - self.c) ** 2).sum(dim=1)


def normal_readings(n, generator):
    latent = torch.randn(n, 3, generator=generator)
    mixing = torch.linspace(-1, 1, 3 * N_SENSORS).reshape(3, N_SENSORS)
    return latent @ mixing + 0.05 * torch.randn(n, N_SENSORS, generator=generator)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    train = [normal_readings(BATCH, gen) for _ in range(5)]
    trainer = DeepSVDDTrainer(TelemetryEncoder())
    trainer.init_center(train[:2])
    for epoch in range(2):
        losses = [trainer.train_step(x) for x in train]
        print(f"epoch {epoch} mean distance {sum(losses) / len(losses):.5f}")
    faulty = normal_readings(4, gen) + 3.0
    print("anomaly scores", [round(s, 3) for s in trainer.score(faulty).tolist()])


if __name__ == "__main__":
    main()
