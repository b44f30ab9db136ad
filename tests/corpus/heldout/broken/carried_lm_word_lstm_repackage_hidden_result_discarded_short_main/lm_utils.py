"""Data and state helpers shared by the word-level language-model scripts."""
import torch


def synthetic_corpus(n_tokens, vocab_size):
    """A toy corpus with some structure: token t is usually followed by (3 * t + 1) % V."""
    ids = [0]
    gen = torch.Generator().manual_seed(1234)
    for _ in range(n_tokens - 1):
        if torch.rand(1, generator=gen).item() < 0.8:
            ids.append((3 * ids[-1] + 1) % vocab_size)
        else:
            ids.append(int(torch.randint(vocab_size, (1,), generator=gen)))
    return torch.tensor(ids)


def batchify(ids, batch_size):
    n_batch = ids.size(0) // batch_size
    return ids[:n_batch * batch_size].view(batch_size, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target


def repackage_hidden(h):
    """Wraps hidden states in new tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)
