"""Losses for the singing-voice frame model. Pitch error is measured in cents, the unit
singers and the evaluation scripts use, and only on voiced frames."""
import torch
import torch.nn.functional as F


def voicing_loss(voicing_logits, voiced):
    return F.binary_cross_entropy_with_logits(voicing_logits, voiced)


class CentsLoss:
    def __init__(self, reference_hz=10.0):
        self.reference_hz = reference_hz

    def __call__(self, f0_pred_hz, f0_true_hz, voiced):
        mask = voiced > 0.5
        cents = 1200.0 * torch.abs(torch.log2((f0_pred_hz[mask] + self.reference_hz)
                                              / (f0_true_hz[mask] + self.reference_hz)))
        return cents.mean() if mask.any() else f0_pred_hz.sum() * 0.0
