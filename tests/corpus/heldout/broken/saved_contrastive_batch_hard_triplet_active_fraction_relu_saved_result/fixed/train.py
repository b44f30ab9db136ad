"""Metric learning with a batch-hard triplet loss (Hermans et al., 2017) on synthetic
"product photo" descriptors: P classes x K samples per batch, hardest positive and hardest
negative per anchor. The log line reports the fraction of triplets that still violate the
margin, which is the number to watch once the loss itself flattens out."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, EMB_DIM, N_CLASSES, P, K, MARGIN = 32, 16, 10, 4, 4, 0.3


def batch_hard_triplet_loss(emb, labels, margin):
    dist = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None, :]
    hardest_pos = (dist * same.float()).max(1).values
    hardest_neg = (dist + 1e4 * same.float()).min(1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean()


def active_fraction(loss):
    """Share of anchors whose hinge is still active, read off the loss graph, so it works for
    any of our triplet losses (they all end in relu(...).mean())."""
    hinge_node = loss.grad_fn.next_functions[0][0]
    return (hinge_node._saved_result > 0).float().mean().item()


def sample_pk_batch(class_means):
    classes = torch.randperm(N_CLASSES)[:P]
    labels = classes.repeat_interleave(K)
    x = class_means[labels] + 0.6 * torch.randn(P * K, IN_DIM)
    return x, labels


def train(steps=6):
    torch.manual_seed(0)
    class_means = torch.randn(N_CLASSES, IN_DIM)
    net = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, EMB_DIM))
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    for step in range(steps):
        x, labels = sample_pk_batch(class_means)
        emb = F.normalize(net(x), dim=1)
        loss = batch_hard_triplet_loss(emb, labels, MARGIN)
        active = active_fraction(loss)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: triplet loss {loss.item():.4f} active {active:.3f}")
    return net


if __name__ == "__main__":
    net = train()
    print(f"checksum {sum(p.sum().item() for p in net.parameters()):.4f}")
