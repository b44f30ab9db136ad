"""Contrastive losses for the sensor-embedding project."""
import torch
import torch.nn.functional as F


def supervised_contrastive(features, labels, temperature=0.1):
    """SupCon (Khosla et al. 2020), single view per sample: every other sample with the
    same label is a positive; the anchor itself is excluded from the denominator."""
    z = F.normalize(features, dim=1)
    logits = z @ z.t() / temperature
    exp_logits = torch.exp(logits)
    exp_logits.fill_diagonal_(0.0)
    log_prob = logits - torch.log(exp_logits.sum(dim=1, keepdim=True))

    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    positives = same & ~torch.eye(len(labels), dtype=torch.bool)
    pos_count = positives.sum(dim=1).clamp(min=1)
    mean_log_prob_pos = (log_prob * positives).sum(dim=1) / pos_count
    return -mean_log_prob_pos.mean()


def alignment(features, labels):
    """Mean squared distance between normalised embeddings of same-label pairs (a metric)."""
    z = F.normalize(features.detach(), dim=1)
    same = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()
    return ((torch.cdist(z, z) ** 2) * same).sum() / same.sum()
