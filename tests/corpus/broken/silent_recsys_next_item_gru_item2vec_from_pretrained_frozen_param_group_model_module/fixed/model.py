"""Session model for next-item recommendation: a GRU reads the session's item vectors and
the next item is scored against the same (tied) item table."""
import torch
import torch.nn as nn


class NextItemGRU(nn.Module):
    def __init__(self, item_vectors: torch.Tensor, hidden: int = 32):
        super().__init__()
        dim = item_vectors.shape[1]
        # start from the item2vec vectors trained on the whole catalogue
        self.item_emb = nn.Embedding.from_pretrained(item_vectors, freeze=False, padding_idx=0)
        self.encoder = nn.GRU(dim, hidden, batch_first=True)
        self.to_item_space = nn.Linear(hidden, dim)

    def forward(self, sessions: torch.Tensor) -> torch.Tensor:
        states, _ = self.encoder(self.item_emb(sessions))
        user = self.to_item_space(states[:, -1])
        return user @ self.item_emb.weight.t()
