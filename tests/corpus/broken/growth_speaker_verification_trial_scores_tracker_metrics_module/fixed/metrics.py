"""Verification metrics collected during training."""
import torch


class TrialScoreTracker:
    """Collects cosine scores of same/different-speaker pairs and reports
    the equal error rate over everything seen so far."""

    def __init__(self):
        self.scores = []
        self.targets = []

    def update(self, scores, same_speaker):
        self.scores.append(scores.detach())
        self.targets.append(same_speaker)

    def eer(self):
        scores = torch.cat(self.scores)
        targets = torch.cat(self.targets)
        best = 1.0
        for thr in torch.linspace(-1.0, 1.0, 41):
            accept = scores >= thr
            far = (accept & ~targets).sum() / max(int((~targets).sum()), 1)
            frr = (~accept & targets).sum() / max(int(targets.sum()), 1)
            best = min(best, float(torch.maximum(far, frr)))
        return best
