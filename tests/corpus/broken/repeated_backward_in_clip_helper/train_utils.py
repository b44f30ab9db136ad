"""Small training helpers shared by the project's scripts."""
import torch


def backward_and_clip(loss, model, max_norm=1.0):
    """Backpropagate `loss` and clip the model's gradient norm; returns the norm before clipping."""
    loss.backward()
    return torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)


def batches(x, y, size):
    for i in range(0, len(x), size):
        yield x[i:i + size], y[i:i + size]
