"""Scatter helpers on top of torch.scatter_reduce (replaces the torch_scatter dependency)."""


def scatter(src, index, dim_size, reduce="sum"):
    """Reduce the rows of src into dim_size rows by index (sum, mean, amax, amin, prod)."""
    out = src.new_zeros((dim_size,) + tuple(src.shape[1:]))
    idx = index.view(-1, *([1] * (src.dim() - 1))).expand_as(src)
    return out.scatter_reduce(0, idx, src, reduce=reduce, include_self=False)
