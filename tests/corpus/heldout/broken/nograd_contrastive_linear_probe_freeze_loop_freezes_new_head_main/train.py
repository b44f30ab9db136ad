"""SimCLR pre-training followed by a linear probe, in one main(): a few NT-Xent steps on
unlabeled tabular records, then the projection head is dropped, a linear classifier is
attached and trained on the frozen encoder's features."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, FEAT_DIM, PROJ_DIM, N_CLASSES, BATCH = 20, 32, 16, 3, 24


class SimCLRNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, FEAT_DIM), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(FEAT_DIM, FEAT_DIM), nn.ReLU(), nn.Linear(FEAT_DIM, PROJ_DIM))

    def forward(self, x):
        return self.projector(self.encoder(x))


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    sim = sim.masked_fill(torch.eye(len(z), dtype=torch.bool), float("-inf"))
    n = len(z1)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(sim, targets)


def corrupt(x):
    mask = torch.rand_like(x) < 0.3
    return torch.where(mask, x[torch.randperm(len(x))], x)


def main():
    torch.manual_seed(0)
    centers = torch.randn(N_CLASSES, IN_DIM)
    labels = torch.randint(0, N_CLASSES, (BATCH * 4,))
    records = centers[labels] + 0.8 * torch.randn(len(labels), IN_DIM)

    model = SimCLRNet()
    pretrain_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, x in enumerate(records.split(BATCH)):
        loss = nt_xent(model(corrupt(x)), model(corrupt(x)))
        pretrain_opt.zero_grad()
        loss.backward()
        pretrain_opt.step()
        print(f"pretrain step {step}: nt-xent {loss.item():.4f}")

    model.head = nn.Linear(FEAT_DIM, N_CLASSES)
    for p in model.parameters():
        p.requires_grad = False
    probe_opt = torch.optim.SGD(model.head.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(2):
        for x, y in zip(records.split(BATCH), labels.split(BATCH)):
            loss = F.cross_entropy(model.head(model.encoder(x)), y)
            probe_opt.zero_grad()
            loss.backward()
            probe_opt.step()
        print(f"probe epoch {epoch}: ce {loss.item():.4f}")
    return model


if __name__ == "__main__":
    main()
