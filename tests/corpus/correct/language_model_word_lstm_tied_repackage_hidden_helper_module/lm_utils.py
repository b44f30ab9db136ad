"""Data helpers for the word-level LM (in the spirit of the classic word_language_model
example): a tiny corpus, batchify into parallel streams, bptt slices, and the helper that
cuts the recurrent state from its history between slices."""
import torch

CORPUS = (
    "the cat sat on the mat . the dog sat on the log . a cat saw a dog . "
    "the dog saw the cat on the mat . a bird sat on a log . the bird saw the dog . "
) * 4


class Vocab:
    def __init__(self, text):
        self.words = sorted(set(text.split()))
        self.index = {w: i for i, w in enumerate(self.words)}

    def encode(self, text):
        return torch.tensor([self.index[w] for w in text.split()])

    def __len__(self):
        return len(self.words)


def batchify(ids, n_streams):
    usable = ids.size(0) // n_streams * n_streams
    return ids[:usable].view(n_streams, -1).t().contiguous()


def get_batch(source, i, bptt):
    length = min(bptt, source.size(0) - 1 - i)
    return source[i:i + length], source[i + 1:i + 1 + length]


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)
