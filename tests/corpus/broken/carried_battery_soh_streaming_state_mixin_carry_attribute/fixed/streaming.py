import torch


class StreamingStateMixin:
    """Gives a module a persistent recurrent state across forward calls, so
    consecutive charge/discharge cycles of the same packs can be streamed
    one chunk at a time."""

    _carry = None

    def reset_stream(self):
        self._carry = None

    def read_state(self, batch, dim):
        if self._carry is None or self._carry.shape[0] != batch:
            return torch.zeros(batch, dim)
        return self._carry

    def write_state(self, state):
        self._carry = state.detach()
