"""Scoring utilities shared by training and the offline evaluator."""
import torch


def score(model, users, items):
    u = model.user_emb(users)
    v = model.item_emb(items)
    return (u * v).sum(-1) + model.item_bias(items).squeeze(-1)


def pair_margin(model, users, pos_items, neg_items):
    """score(pos) - score(neg); the evaluator turns it into a pairwise AUC."""
    return score(model, users, pos_items) - score(model, users, neg_items)


@torch.no_grad()
def pairwise_auc(model, users, pos_items, neg_items):
    return (pair_margin(model, users, pos_items, neg_items) > 0).float().mean().item()
