"""News click model: a GRU over the user's read history scores candidate articles."""
import torch
import torch.nn as nn


class NewsEncoder(nn.Module):
    def __init__(self, vocab, n_categories, dim):
        super().__init__()
        self.words = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.category_emb = nn.Embedding(n_categories, dim)
        self.category_mlp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self._category_table = None

    def category_table(self):
        # the table depends on the weights only, not on the batch: build it once
        if self._category_table is None:
            self._category_table = self.category_mlp(self.category_emb.weight)
        return self._category_table

    def forward(self, title_tokens, category):
        return self.words(title_tokens) + self.category_table()[category]


class ClickModel(nn.Module):
    def __init__(self, vocab=50, n_categories=6, dim=16):
        super().__init__()
        self.news = NewsEncoder(vocab, n_categories, dim)
        self.user_gru = nn.GRU(dim, dim, batch_first=True)

    def forward(self, hist_titles, hist_cats, cand_titles, cand_cats):
        b, h, length = hist_titles.shape
        hist = self.news(hist_titles.reshape(b * h, length), hist_cats.reshape(b * h))
        _, user = self.user_gru(hist.view(b, h, -1))
        c = cand_titles.shape[1]
        cand = self.news(cand_titles.reshape(b * c, length), cand_cats.reshape(b * c))
        return torch.einsum("bd,bcd->bc", user[-1], cand.view(b, c, -1))
