"""Tiny hybrid CTC/attention recogniser trained with gradient accumulation over two
micro-batches; the CTC and attention losses share the encoder and are summed into a single
backward per micro-batch, and the attention sharpness is logged from tensors the model returns."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATS, HIDDEN, N_TOKENS, BLANK, BOS, FRAMES, LABEL_LEN = 16, 32, 10, 0, 1, 24, 4


class JointModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(N_FEATS, HIDDEN, batch_first=True)
        self.ctc_head = nn.Linear(HIDDEN, N_TOKENS)
        self.embed = nn.Embedding(N_TOKENS, HIDDEN)
        self.decoder = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.out = nn.Linear(2 * HIDDEN, N_TOKENS)

    def forward(self, feats, prev_tokens):
        enc, _ = self.encoder(feats)
        ctc_logits = self.ctc_head(enc)
        queries, _ = self.decoder(self.embed(prev_tokens))
        attn = torch.softmax(queries @ enc.transpose(1, 2) / HIDDEN ** 0.5, dim=-1)
        att_logits = self.out(torch.cat([queries, attn @ enc], dim=-1))
        return ctc_logits, att_logits, attn


def micro_batch(batch=3):
    labels = torch.randint(2, N_TOKENS, (batch, LABEL_LEN))
    feats = 0.5 * torch.randn(batch, FRAMES, N_FEATS)
    for k in range(LABEL_LEN):
        feats[:, 6 * k:6 * k + 6, :N_TOKENS] += F.one_hot(labels[:, k], N_TOKENS)[:, None]
    return feats, labels


def main(updates=4, accum=2, ctc_weight=0.3):
    torch.manual_seed(0)
    model = JointModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for update in range(updates):
        optimizer.zero_grad()
        total, sharpness = 0.0, 0.0
        for _ in range(accum):
            feats, labels = micro_batch()
            b = feats.size(0)
            prev = torch.cat([torch.full((b, 1), BOS), labels[:, :-1]], dim=1)
            ctc_logits, att_logits, attn = model(feats, prev)
            log_probs = F.log_softmax(ctc_logits, dim=-1).transpose(0, 1)
            ctc = F.ctc_loss(log_probs, labels, torch.full((b,), FRAMES), torch.full((b,), LABEL_LEN),
                             blank=BLANK)
            att = F.cross_entropy(att_logits.reshape(-1, N_TOKENS), labels.reshape(-1))
            loss = (ctc_weight * ctc + (1 - ctc_weight) * att) / accum
            sharpness += attn.detach().amax(dim=-1).mean().item() / accum
            loss.backward()
            total += loss.item()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        print(f"update {update} loss {total:.4f} attn peak {sharpness:.4f}")
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))


if __name__ == "__main__":
    main()
