"""Hybrid CTC/attention speech recogniser (tiny): a GRU encoder over filterbank frames, a CTC
head on the encoder, and a teacher-forced GRU decoder with dot-product attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATS, HIDDEN, N_TOKENS, BLANK, BOS = 20, 32, 12, 0, 1
FRAMES, LABEL_LEN = 30, 6


class JointCTCAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(N_FEATS, HIDDEN, batch_first=True, bidirectional=True)
        self.enc_proj = nn.Linear(2 * HIDDEN, HIDDEN)
        self.ctc_head = nn.Linear(HIDDEN, N_TOKENS)
        self.embed = nn.Embedding(N_TOKENS, HIDDEN)
        self.decoder = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.out = nn.Linear(2 * HIDDEN, N_TOKENS)

    def encode(self, feats):
        enc, _ = self.encoder(feats)
        return torch.tanh(self.enc_proj(enc))

    def decode(self, enc, prev_tokens):
        queries, _ = self.decoder(self.embed(prev_tokens))
        attn = torch.softmax(queries @ enc.transpose(1, 2) / HIDDEN ** 0.5, dim=-1)
        context = attn @ enc
        return self.out(torch.cat([queries, context], dim=-1))


class Trainer:
    def __init__(self, model, ctc_weight=0.3, lr=2e-3):
        self.model = model
        self.ctc_weight = ctc_weight
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def training_step(self, feats, labels):
        batch = feats.size(0)
        enc = self.model.encode(feats)
        log_probs = F.log_softmax(self.model.ctc_head(enc), dim=-1).transpose(0, 1)
        in_lens = torch.full((batch,), FRAMES, dtype=torch.long)
        out_lens = torch.full((batch,), LABEL_LEN, dtype=torch.long)
        ctc_loss = F.ctc_loss(log_probs, labels, in_lens, out_lens, blank=BLANK)

        prev = torch.cat([torch.full((batch, 1), BOS), labels[:, :-1]], dim=1)
        logits = self.model.decode(enc, prev)
        att_loss = F.cross_entropy(logits.reshape(-1, N_TOKENS), labels.reshape(-1),
                                   label_smoothing=0.1)

        self.optimizer.zero_grad()
        (self.ctc_weight * ctc_loss).backward()
        ((1 - self.ctc_weight) * att_loss).backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
        self.optimizer.step()
        return ctc_loss.item(), att_loss.item()

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for i, (feats, labels) in enumerate(batches):
                ctc, att = self.training_step(feats, labels)
                print(f"epoch {epoch} batch {i} ctc {ctc:.4f} att {att:.4f}")


def fake_utterances(n_batches, batch=4):
    out = []
    for _ in range(n_batches):
        labels = torch.randint(2, N_TOKENS, (batch, LABEL_LEN))
        feats = torch.randn(batch, FRAMES, N_FEATS)
        for k in range(LABEL_LEN):
            feats[:, 5 * k:5 * k + 5, :N_TOKENS] += F.one_hot(labels[:, k], N_TOKENS)[:, None]
        out.append((feats, labels))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(JointCTCAttention()).fit(fake_utterances(3), epochs=2)
