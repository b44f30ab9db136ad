"""Virtual adversarial training (Miyato et al.): the local distributional smoothness term.

The adversarial direction is found by power iteration: the gradient (read from d.grad) of the KL divergence
between the clean and the perturbed predictions with respect to a small random step."""
import torch
import torch.nn.functional as F


def _unit(d):
    flat = d.flatten(1)
    return (flat / (flat.norm(dim=1, keepdim=True) + 1e-8)).view_as(d)


def kl_with_logits(p_logits, q_logits):
    p = F.softmax(p_logits, dim=1)
    return (p * (F.log_softmax(p_logits, dim=1) - F.log_softmax(q_logits, dim=1))).sum(1).mean()


class VATLoss:
    def __init__(self, xi=1e-6, eps=2.0, n_power=1):
        self.xi, self.eps, self.n_power = xi, eps, n_power

    def __call__(self, model, x, logits):
        logits = logits.detach()
        d = _unit(torch.randn_like(x))
        for _ in range(self.n_power):
            d.requires_grad_(True)
            distance = kl_with_logits(logits, model(x + self.xi * d))
            distance.backward()
            d = _unit(d.grad)
            model.zero_grad()
        return kl_with_logits(logits, model(x + self.eps * d))
