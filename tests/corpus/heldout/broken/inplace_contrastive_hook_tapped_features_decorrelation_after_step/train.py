"""Contrastive pre-training of a tabular encoder (InfoNCE between two corrupted views) with a
VICReg-style decorrelation penalty on the backbone features. The backbone output is read
through a forward hook so the model code stays untouched; the penalty is applied as its own
update after the contrastive step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEATURES, BATCH, TAU, DECOR_WEIGHT = 12, 64, 0.3, 0.05


class FeatureTap:
    def __init__(self, module):
        self.features = None
        self.handle = module.register_forward_hook(self.record)

    def record(self, module, inputs, output):
        self.features = output


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(N_FEATURES, 64), nn.ReLU(),
                                      nn.Linear(64, 32), nn.ReLU())
        self.projector = nn.Linear(32, 16)

    def forward(self, x):
        return F.normalize(self.projector(self.backbone(x)), dim=1)


def corrupt(x, p=0.3):
    mask = torch.rand_like(x) < p
    shuffled = x[torch.randperm(x.shape[0])]
    return torch.where(mask, shuffled, x)


def info_nce(z1, z2):
    logits = z1 @ z2.t() / TAU
    return F.cross_entropy(logits, torch.arange(z1.shape[0]))


def off_diagonal_cov(h):
    h = h - h.mean(0)
    cov = h.t() @ h / (h.shape[0] - 1)
    return (cov - torch.diag(torch.diag(cov))).pow(2).sum() / h.shape[1]


model = Encoder()
tap = FeatureTap(model.backbone)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
table = torch.randn(256, N_FEATURES) @ torch.randn(N_FEATURES, N_FEATURES)

for step in range(6):
    x = table[torch.randint(0, len(table), (BATCH,))]
    z1, z2 = model(corrupt(x)), model(corrupt(x))
    loss = info_nce(z1, z2)
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()

    decor = DECOR_WEIGHT * off_diagonal_cov(tap.features)
    optimizer.zero_grad()
    decor.backward()
    optimizer.step()
    print(f"step {step}  infonce {loss.item():.4f}  decor {decor.item():.4f}")
