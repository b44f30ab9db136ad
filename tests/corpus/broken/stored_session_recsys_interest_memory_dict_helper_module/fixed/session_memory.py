"""Per-session interest memory for a streaming next-item recommender: the latest GRU state
of every open session, keyed by session id, so that a session's next click (which arrives in
a later mini-batch) continues from where it left off."""
import torch


class SessionMemory:
    def __init__(self, dim):
        self.dim = dim
        self._states = {}

    def read(self, session_ids):
        empty = torch.zeros(self.dim)
        return torch.stack([self._states.get(sid, empty) for sid in session_ids])

    def write(self, session_ids, states):
        for sid, h in zip(session_ids, states):
            self._states[sid] = h.detach()

    def close(self, session_ids):
        for sid in session_ids:
            self._states.pop(sid, None)

    def __len__(self):
        return len(self._states)
