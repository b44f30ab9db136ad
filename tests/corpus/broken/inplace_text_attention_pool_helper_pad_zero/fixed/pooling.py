"""Sequence pooling helpers shared by the text models."""
import torch


def mask_padding_(weights, lengths):
    """Zero the attention weight of every padded position of each sequence (returns a new
    tensor: the softmax output it receives is needed by softmax's backward)."""
    return weights * padding_mask(lengths, weights.size(1))


def renormalise(weights, eps=1e-9):
    return weights / (weights.sum(dim=1, keepdim=True) + eps)


def padding_mask(lengths, max_len):
    return torch.arange(max_len)[None, :] < lengths[:, None]
