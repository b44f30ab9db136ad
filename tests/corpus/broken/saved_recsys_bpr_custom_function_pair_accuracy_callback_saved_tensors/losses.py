"""Fused BPR loss as a custom autograd.Function: mean softplus(-(pos - neg)) with a
hand-written backward that reuses the saved score margin."""
import torch
import torch.nn.functional as F


class BPRLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pos_scores, neg_scores):
        margin = pos_scores - neg_scores
        ctx.save_for_backward(margin)
        return F.softplus(-margin).mean()

    @staticmethod
    def backward(ctx, grad_out):
        (margin,) = ctx.saved_tensors
        grad_margin = -torch.sigmoid(-margin) * grad_out / margin.numel()
        return grad_margin, -grad_margin


def bpr_loss(pos_scores, neg_scores):
    return BPRLoss.apply(pos_scores, neg_scores)
