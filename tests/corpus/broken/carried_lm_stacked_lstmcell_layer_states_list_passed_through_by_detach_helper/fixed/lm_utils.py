"""Helpers shared by the language-model scripts."""
import torch


def batchify(ids, n_streams):
    """Cut a 1-D token stream into n_streams parallel columns: (length, n_streams)."""
    length = ids.numel() // n_streams
    return ids[:length * n_streams].view(n_streams, length).t().contiguous()


def get_segment(source, i, bptt):
    seq_len = min(bptt, source.size(0) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def detach_state(state):
    """Cut the recurrent state from the previous segment's graph (truncated BPTT).

    Works for a GRU's tensor, an LSTM's (h, c) tuple, and lists of either (one per layer)."""
    if isinstance(state, torch.Tensor):
        return state.detach()
    if isinstance(state, (tuple, list)):
        return type(state)(detach_state(s) for s in state)
    return state
