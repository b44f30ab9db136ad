"""Robustness regularisers shared by the training scripts."""
import torch


def input_gradient_penalty(loss, inputs):
    """Double-backpropagation penalty (Drucker & LeCun): the mean squared norm of the loss
    gradient with respect to each input. Small input gradients make the classifier less
    sensitive to small adversarial perturbations."""
    (grad,) = torch.autograd.grad(loss, inputs)
    return grad.flatten(1).pow(2).sum(1).mean()


def fgsm(model, loss_fn, x, y, eps):
    """One-step attack used to report robust accuracy."""
    x = x.clone().requires_grad_(True)
    loss = loss_fn(model(x), y)
    (grad,) = torch.autograd.grad(loss, x)
    return (x + eps * grad.sign()).detach()
