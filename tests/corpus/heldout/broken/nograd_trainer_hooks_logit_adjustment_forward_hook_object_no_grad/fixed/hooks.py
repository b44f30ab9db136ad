"""Forward hooks that plug long-tail tricks into an unmodified classifier."""
import torch


class LogitAdjustmentHook:
    """Logit-adjusted training (Menon et al., 2021): during training, add tau * log(prior)
    to the classifier's logits so the softmax loss becomes balanced. The hook also keeps a
    running estimate of the predicted class distribution for monitoring."""

    def __init__(self, class_counts, tau=1.0, momentum=0.9):
        prior = class_counts.float() / class_counts.sum()
        self.log_prior = prior.log()
        self.tau, self.momentum = tau, momentum
        self.predicted_prior = prior.clone()
        self.handle = None

    def attach(self, module):
        self.handle = module.register_forward_hook(self)
        return self

    def __call__(self, module, inputs, logits):
        if not module.training:
            return None
        with torch.no_grad():
            batch_prior = logits.softmax(dim=1).mean(dim=0)
            self.predicted_prior.mul_(self.momentum).add_((1 - self.momentum) * batch_prior)
        return logits + self.tau * self.log_prior
