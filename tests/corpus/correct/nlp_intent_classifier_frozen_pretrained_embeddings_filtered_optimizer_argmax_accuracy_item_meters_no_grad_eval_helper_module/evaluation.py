"""Evaluation helpers: no autograd needed here, so the whole helper runs under no_grad."""
import numpy as np
import torch


@torch.no_grad()
def evaluate(model, tokens, labels, n_classes):
    was_training = model.training
    model.eval()
    logits = model(tokens)
    preds = logits.argmax(dim=-1)
    confusion = np.zeros((n_classes, n_classes), dtype=np.int64)
    for t, p in zip(labels.tolist(), preds.tolist()):
        confusion[t, p] += 1
    confidence = logits.softmax(dim=-1).max(dim=-1).values.numpy()
    model.train(was_training)
    return {
        "acc": float(np.trace(confusion)) / len(labels),
        "mean_conf": float(confidence.mean()),
        "per_class_recall": (confusion.diagonal() / np.maximum(confusion.sum(axis=1), 1)).round(3).tolist(),
    }
