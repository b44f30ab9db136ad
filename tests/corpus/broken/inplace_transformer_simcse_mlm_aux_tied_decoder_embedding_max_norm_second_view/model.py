"""One-block transformer sentence encoder with a weight-tied masked-LM decoder.

Token embeddings are kept inside the unit ball (max_norm) so that the cosine-similarity
objective cannot be gamed by blowing up rare-token norms."""
import torch
import torch.nn as nn

PAD, MASK = 0, 1


class SentenceEncoder(nn.Module):
    def __init__(self, vocab, dim=32, heads=4, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=PAD, max_norm=1.0)
        self.pos = nn.Parameter(0.02 * torch.randn(max_len, dim))
        self.block = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1,
                                                batch_first=True, norm_first=True)
        self.norm = nn.LayerNorm(dim)
        self.mlm_bias = nn.Parameter(torch.zeros(vocab))

    def forward(self, ids):
        h = self.tok(ids) + self.pos[: ids.size(1)]
        return self.norm(self.block(h))

    def mlm_logits(self, h):
        """Decoder tied to the input embedding matrix."""
        return h @ self.tok.weight.t() + self.mlm_bias

    @staticmethod
    def pool(h):
        return h.mean(dim=1)
