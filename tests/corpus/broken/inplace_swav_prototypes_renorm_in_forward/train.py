"""SwAV-style clustering pretraining on synthetic vectors: two augmented views per sample,
Sinkhorn-Knopp codes from one view are predicted from the other (swapped prediction)."""
import torch
import torch.nn.functional as F

from model import Encoder, SwAVHead

torch.manual_seed(0)
TEMPERATURE, EPS, SINKHORN_ITERS = 0.1, 0.05, 3


@torch.no_grad()
def sinkhorn(scores):
    q = torch.exp(scores / EPS).t()
    q /= q.sum()
    n_protos, batch = q.shape
    for _ in range(SINKHORN_ITERS):
        q /= q.sum(dim=1, keepdim=True) * n_protos
        q /= q.sum(dim=0, keepdim=True) * batch
    return (q * batch).t()


def augment(x):
    mask = (torch.rand_like(x) > 0.2).float()
    return x * mask + 0.1 * torch.randn_like(x)


encoder, head = Encoder(), SwAVHead()
params = list(encoder.parameters()) + list(head.parameters())
optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9)
centers = torch.randn(10, 32)
for step in range(5):
    x = centers[torch.randint(0, 10, (64,))] + 0.3 * torch.randn(64, 32)
    scores_1 = head(encoder(augment(x)))
    scores_2 = head(encoder(augment(x)))
    q_1, q_2 = sinkhorn(scores_1), sinkhorn(scores_2)
    loss = -0.5 * (
        (q_1 * F.log_softmax(scores_2 / TEMPERATURE, dim=1)).sum(dim=1).mean()
        + (q_2 * F.log_softmax(scores_1 / TEMPERATURE, dim=1)).sum(dim=1).mean())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} swapped-prediction loss {loss.item():.4f}")
