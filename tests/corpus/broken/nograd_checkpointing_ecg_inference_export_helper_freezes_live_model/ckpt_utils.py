"""Checkpoint helpers: a full training checkpoint and a slim inference artifact."""
import io

import torch


def save_training_checkpoint(store, epoch, model, optimizer):
    buf = io.BytesIO()
    torch.save({"epoch": epoch, "model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, buf)
    store[f"train-{epoch:03d}"] = buf.getvalue()


def save_inference_checkpoint(store, epoch, model, class_names):
    """Weights only, in eval mode, no autograd flags: what the bedside monitor loads."""
    model.eval()
    model.requires_grad_(False)
    buf = io.BytesIO()
    torch.save({"model": model.state_dict(), "classes": class_names}, buf)
    store[f"infer-{epoch:03d}"] = buf.getvalue()
    model.train()
    return len(store[f"infer-{epoch:03d}"])
