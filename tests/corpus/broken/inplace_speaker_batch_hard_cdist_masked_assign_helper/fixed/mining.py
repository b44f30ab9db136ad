"""Online triplet mining for speaker embeddings (batch-hard, Hermans et al. 2017)."""
import torch
import torch.nn.functional as F


def pairwise_distances(emb):
    """Euclidean distance between every pair of embeddings in the batch."""
    return torch.cdist(emb, emb)


def batch_hard_triplet_loss(emb, speakers, margin=0.3):
    """For every anchor: its farthest same-speaker utterance and its closest other-speaker
    utterance; hinge on the gap between the two."""
    dist = pairwise_distances(emb)
    same = speakers[:, None] == speakers[None, :]
    hardest_pos = (dist * same.float()).max(dim=1).values
    # positives (and the anchor itself) must not be picked as the closest negative
    dist = dist.masked_fill(same, float("inf"))
    hardest_neg = dist.min(dim=1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean()


def fraction_active(emb, speakers, margin=0.3):
    """Share of anchors whose hardest triplet still violates the margin (for the log)."""
    with torch.no_grad():
        dist = pairwise_distances(emb)
        same = speakers[:, None] == speakers[None, :]
        pos = (dist * same.float()).max(dim=1).values
        neg = dist.masked_fill(same, float("inf")).min(dim=1).values
        return (pos - neg + margin > 0).float().mean().item()
