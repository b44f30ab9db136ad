"""Projected gradient descent (Madry et al.) in the L-inf ball."""
import torch
import torch.nn.functional as F


def pgd_attack(model, x, y, eps=0.1, alpha=0.025, steps=5):
    """Return the adversarial inputs and the model's logits on them, so that
    callers can log robust accuracy without another forward pass."""
    was_training = model.training
    model.eval()
    x_adv = x + torch.empty_like(x).uniform_(-eps, eps)
    for _ in range(steps):
        x_adv.requires_grad_(True)
        loss = F.cross_entropy(model(x_adv), y)
        grad, = torch.autograd.grad(loss, x_adv)
        x_adv = x_adv.detach() + alpha * grad.sign()
        x_adv = torch.min(torch.max(x_adv, x - eps), x + eps)
    model.train(was_training)
    with torch.no_grad():
        logits = model(x_adv)
    return x_adv.detach(), logits
