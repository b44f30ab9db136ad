"""Episode sampling and prototype utilities for few-shot classification."""
import torch


def sample_episode(class_means, n_way, k_shot, n_query, generator):
    classes = torch.randperm(len(class_means), generator=generator)[:n_way]
    support, query, query_labels = [], [], []
    for label, c in enumerate(classes):
        pts = class_means[c] + 0.6 * torch.randn(k_shot + n_query, class_means.shape[1],
                                                  generator=generator)
        support.append(pts[:k_shot])
        query.append(pts[k_shot:])
        query_labels.append(torch.full((n_query,), label))
    return torch.stack(support), torch.cat(query), torch.cat(query_labels)


def prototypes(support_emb):
    """support_emb: (n_way, k_shot, dim) -> one mean embedding per class."""
    return support_emb.mean(dim=1)


def euclidean_logits(protos, query_emb):
    """Negative squared distance from every query to every prototype."""
    sq_dist = ((query_emb[:, None, :] - protos[None, :, :]) ** 2).sum(dim=2)
    return -sq_dist
