"""Chamfer distance as a custom autograd Function (nearest-neighbour indices kept for backward)."""
import torch


class ChamferDistance(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pred, gt):
        d = torch.cdist(pred, gt) ** 2
        d_pred, idx_pred = d.min(dim=2)
        d_gt, idx_gt = d.min(dim=1)
        ctx.save_for_backward(pred, gt, idx_pred, idx_gt)
        return d_pred.mean(dim=1) + d_gt.mean(dim=1)

    @staticmethod
    def backward(ctx, grad):
        pred, gt, idx_pred, idx_gt = ctx.saved_tensors
        n, m = pred.shape[1], gt.shape[1]
        g = grad.view(-1, 1, 1)
        nn_gt = torch.gather(gt, 1, idx_pred.unsqueeze(-1).expand(-1, -1, 3))
        nn_pred = torch.gather(pred, 1, idx_gt.unsqueeze(-1).expand(-1, -1, 3))
        grad_pred = 2 * g * (pred - nn_gt) / n
        grad_pred = grad_pred.scatter_add(
            1, idx_gt.unsqueeze(-1).expand(-1, -1, 3), 2 * g * (nn_pred - gt) / m
        )
        return grad_pred, None


chamfer = ChamferDistance.apply
