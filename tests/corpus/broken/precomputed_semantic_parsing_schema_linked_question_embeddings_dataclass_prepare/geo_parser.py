"""A small GeoQuery-style semantic parser: question tokens (with schema-linking tags) are embedded,
encoded by a GRU, and an attention GRU decoder emits the logical-form tokens."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_LINK_TYPES = 3  # 0: plain word, 1: matches a table/type name, 2: matches a database value


class Seq2SeqParser(nn.Module):
    def __init__(self, n_words, n_lf, dim=32, max_len=8):
        super().__init__()
        self.word_emb = nn.Embedding(n_words, dim)
        self.link_emb = nn.Embedding(N_LINK_TYPES, dim)
        self.pos_emb = nn.Parameter(0.02 * torch.randn(max_len, dim))
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.lf_emb = nn.Embedding(n_lf, dim)
        self.decoder = nn.GRUCell(2 * dim, dim)
        self.out = nn.Linear(2 * dim, n_lf)

    def embed_question(self, tokens, links):
        return self.word_emb(tokens) + self.link_emb(links) + self.pos_emb[: tokens.size(-1)]

    def forward(self, embedded, lf_in, lf_out):
        """Teacher-forced decoding loss for a batch of embedded questions."""
        states, last = self.encoder(embedded)
        h, ctx = last[0], states.mean(dim=1)
        loss = 0.0
        for t in range(lf_in.size(1)):
            h = self.decoder(torch.cat([self.lf_emb(lf_in[:, t]), ctx], dim=-1), h)
            attn = F.softmax(torch.einsum("btd,bd->bt", states, h), dim=-1)
            ctx = torch.einsum("bt,btd->bd", attn, states)
            loss = loss + F.cross_entropy(self.out(torch.cat([h, ctx], dim=-1)), lf_out[:, t])
        return loss / lf_in.size(1)
