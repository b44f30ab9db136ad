"""L-infinity PGD used for adversarial training and robust evaluation."""
import torch
import torch.nn.functional as F


def pgd_linf(model, images, labels, eps=0.1, alpha=0.025, steps=4):
    """Projected gradient ascent on the cross-entropy inside an eps-ball around images.
    Only the input gradient is needed, so the weights are taken out of autograd."""
    was_training = model.training
    model.eval()
    model.requires_grad_(False)
    delta = torch.empty_like(images).uniform_(-eps, eps)
    for _ in range(steps):
        delta.requires_grad_(True)
        loss = F.cross_entropy(model(images + delta), labels)
        (grad,) = torch.autograd.grad(loss, delta)
        delta = (delta + alpha * grad.sign()).clamp(-eps, eps).detach()
    model.train(was_training)
    return (images + delta).clamp(0.0, 1.0)
