"""Objectives and metrics for the multi-task toxicity model. Missing assay results are
marked with mask == 0 and ignored everywhere."""
import torch
import torch.nn.functional as F


def masked_bce(logits, labels, mask):
    loss = F.binary_cross_entropy_with_logits(logits, labels, reduction="none")
    return (loss * mask).sum() / mask.sum()


def macro_f1_objective(probs, labels, mask, threshold=0.5):
    """1 - macro F1 over the assay tasks. The panel is scored by macro F1, so the model can be
    trained on it directly (objective "f1") instead of the per-label BCE."""
    preds = (probs >= threshold).float()
    tp = (preds * labels * mask).sum(0)
    fp = (preds * (1 - labels) * mask).sum(0)
    fn = ((1 - preds) * labels * mask).sum(0)
    f1 = 2 * tp / (2 * tp + fp + fn + 1e-6)
    return 1 - f1.mean()


def hard_macro_f1(probs, labels, mask):
    with torch.no_grad():
        return 1 - macro_f1_objective(probs, labels, mask).item()
