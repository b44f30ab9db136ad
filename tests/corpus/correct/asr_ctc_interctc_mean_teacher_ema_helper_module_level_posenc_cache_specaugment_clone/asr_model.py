"""Small CTC acoustic model with an intermediate CTC head (InterCTC): conv subsampling, two
self-attention blocks, CTC heads after the first block and at the top. Sinusoidal position
encodings are memoised per length in a module-level cache."""
import math

import torch
import torch.nn as nn

_POSENC_CACHE = {}


def sinusoidal(length, dim):
    key = (length, dim)
    if key not in _POSENC_CACHE:
        pos = torch.arange(length, dtype=torch.float32).unsqueeze(1)
        freq = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(1e4) / dim))
        pe = torch.zeros(length, dim)
        pe[:, 0::2] = torch.sin(pos * freq)
        pe[:, 1::2] = torch.cos(pos * freq)
        _POSENC_CACHE[key] = pe
    return _POSENC_CACHE[key]


class InterCTCModel(nn.Module):
    def __init__(self, n_mels, n_tokens, dim=32):
        super().__init__()
        self.subsample = nn.Sequential(nn.Conv1d(n_mels, dim, 3, stride=2, padding=1), nn.GELU())
        self.block1 = nn.TransformerEncoderLayer(dim, 2, 64, dropout=0.0, batch_first=True)
        self.block2 = nn.TransformerEncoderLayer(dim, 2, 64, dropout=0.0, batch_first=True)
        self.inter_head = nn.Linear(dim, n_tokens)
        self.head = nn.Linear(dim, n_tokens)

    def forward(self, feats, feat_lens):
        x = self.subsample(feats.transpose(1, 2)).transpose(1, 2)
        out_lens = (feat_lens + 1) // 2
        x = x + sinusoidal(x.size(1), x.size(2))
        pad = torch.arange(x.size(1)) >= out_lens.unsqueeze(1)
        x = self.block1(x, src_key_padding_mask=pad)
        inter = self.inter_head(x).log_softmax(-1)
        x = self.block2(x, src_key_padding_mask=pad)
        return self.head(x).log_softmax(-1), inter, out_lens
