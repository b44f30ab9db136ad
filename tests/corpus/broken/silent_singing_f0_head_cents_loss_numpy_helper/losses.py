"""Losses for the singing-voice frame model. Pitch error is measured in cents, the unit
singers and the evaluation scripts use, and only on voiced frames."""
import numpy as np
import torch
import torch.nn.functional as F


def voicing_loss(voicing_logits, voiced):
    return F.binary_cross_entropy_with_logits(voicing_logits, voiced)


class CentsLoss:
    def __init__(self, reference_hz=10.0):
        self.reference_hz = reference_hz

    def __call__(self, f0_pred_hz, f0_true_hz, voiced):
        pred = f0_pred_hz.detach().cpu().numpy()
        true = f0_true_hz.cpu().numpy()
        mask = voiced.cpu().numpy() > 0.5
        cents = 1200.0 * np.abs(np.log2((pred[mask] + self.reference_hz)
                                        / (true[mask] + self.reference_hz)))
        return torch.tensor(float(cents.mean()) if mask.any() else 0.0)
