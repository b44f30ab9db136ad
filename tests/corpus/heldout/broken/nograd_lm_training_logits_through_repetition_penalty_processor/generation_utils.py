"""Sampling utilities shared by the training script and the demo generator."""
import torch


class RepetitionPenalty:
    """Makes tokens already present in the context less likely (CTRL-style penalty)."""

    def __init__(self, penalty=1.3):
        self.penalty = penalty

    def __call__(self, scores, context):
        scores = scores.detach().clone()  # never modify the caller's logits in place
        seen = torch.gather(scores, -1, context)
        seen = torch.where(seen < 0, seen * self.penalty, seen / self.penalty)
        scores.scatter_(-1, context, seen)
        return scores


def sample(model, context, steps, processor, generator):
    out = context
    for _ in range(steps):
        with torch.no_grad():
            scores = processor(model(out[:, -context.shape[1]:]), out)
        nxt = torch.multinomial(scores.softmax(-1), 1, generator=generator)
        out = torch.cat([out, nxt], dim=1)
    return out
