"""SimCLR-style contrastive pretraining on synthetic feature vectors: two random
augmentations of each sample are pulled together with the NT-Xent loss. Progress is
tracked with the AverageMeter used across the project's training scripts."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from meters import AverageMeter

torch.manual_seed(0)
IN_DIM, PROJ_DIM, BATCH, TEMP = 24, 8, 32, 0.5


def augment(x):
    mask = (torch.rand_like(x) > 0.2).float()
    return x * mask + 0.1 * torch.randn_like(x)


def nt_xent(z1, z2, temperature=TEMP):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    n = z1.shape[0]
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


encoder = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, 32))
projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, PROJ_DIM))
optimizer = torch.optim.Adam([*encoder.parameters(), *projector.parameters()], lr=1e-3)
centers = torch.randn(6, IN_DIM)

losses = AverageMeter("loss")
for step in range(10):
    x = centers[torch.randint(0, 6, (BATCH,))] + 0.3 * torch.randn(BATCH, IN_DIM)
    loss = nt_xent(projector(encoder(augment(x))), projector(encoder(augment(x))))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.update(loss.item(), x.size(0))
    if step % 3 == 2:
        print(f"step {step} {losses}")
print(f"final average loss {losses.avg:.4f}")
