"""A small bi-encoder for sentence similarity with a sentence-transformers-like API:
tokenize() turns raw sentences into padded ids, forward() maps ids to embeddings, and
encode() is the convenience entry point used by the retrieval service."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class HashTokenizer:
    def __init__(self, vocab_size=97):
        self.vocab_size = vocab_size

    def __call__(self, sentences, max_len=8):
        ids = torch.full((len(sentences), max_len), PAD, dtype=torch.long)
        for row, sentence in enumerate(sentences):
            words = sentence.lower().split()[:max_len]
            for col, word in enumerate(words):
                ids[row, col] = 1 + sum(ord(c) * (i + 1) for i, c in enumerate(word)) % (self.vocab_size - 1)
        return ids


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size=97, dim=24):
        super().__init__()
        self.tokenizer = HashTokenizer(vocab_size)
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.mix = nn.Conv1d(dim, dim, kernel_size=3, padding=1)
        self.proj = nn.Linear(dim, dim)

    def tokenize(self, sentences):
        return self.tokenizer(sentences)

    def forward(self, ids):
        mask = (ids != PAD).float().unsqueeze(-1)
        h = self.embed(ids)
        h = h + torch.tanh(self.mix(h.transpose(1, 2))).transpose(1, 2)
        pooled = (h * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.proj(pooled)

    @torch.inference_mode()
    def encode(self, sentences, normalize=True):
        emb = self(self.tokenize(sentences))
        return F.normalize(emb, dim=-1) if normalize else emb
