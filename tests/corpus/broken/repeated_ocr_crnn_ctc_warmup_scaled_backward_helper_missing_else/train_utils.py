"""Small helpers shared by the OCR training scripts."""
import torch


def backward_with_warmup(loss, step, warmup_steps=4):
    """Scale the loss down for the first steps: early CTC gradients are huge."""
    if step < warmup_steps:
        scale = (step + 1) / warmup_steps
        (loss * scale).backward()
    loss.backward()


def clip_and_step(model, optimizer, max_norm=5.0):
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimizer.step()
    return norm.item()
