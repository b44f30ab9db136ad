"""Tiny causal transformer language model on variable-length token sequences. The loss is
the per-sequence NLL divided by a GNMT-style length penalty ((5 + len) / 6) ** alpha, so
short and long sequences contribute comparably."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, PAD, D_MODEL, MAX_LEN, BATCH = 16, 0, 32, 14, 12


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D_MODEL, padding_idx=PAD)
        self.pos = nn.Embedding(MAX_LEN, D_MODEL)
        self.block = nn.TransformerEncoderLayer(D_MODEL, nhead=4, dim_feedforward=64,
                                                dropout=0.0, batch_first=True)
        self.lm_head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens):
        T = tokens.size(1)
        h = self.tok(tokens) + self.pos(torch.arange(T))
        causal = nn.Transformer.generate_square_subsequent_mask(T)
        return self.lm_head(self.block(h, src_mask=causal, is_causal=True))


def make_batch(gen):
    """Arithmetic-progression token sequences (mod VOCAB-1, shifted past PAD), padded."""
    lengths = torch.randint(5, MAX_LEN + 1, (BATCH,), generator=gen)
    start = torch.randint(1, VOCAB, (BATCH, 1), generator=gen)
    stride = torch.randint(1, 4, (BATCH, 1), generator=gen)
    seqs = (start + stride * torch.arange(MAX_LEN)) % (VOCAB - 1) + 1
    mask = torch.arange(MAX_LEN)[None] < lengths[:, None]
    return seqs.masked_fill(~mask, PAD), mask


class LMTrainer:
    def __init__(self, model, alpha=0.6, lr=3e-3):
        self.model = model
        self.alpha = alpha
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def length_penalised_nll(self, seqs, mask):
        logits = self.model(seqs[:, :-1])
        nll = F.cross_entropy(logits.transpose(1, 2), seqs[:, 1:], reduction="none")
        target_mask = mask[:, 1:].float()
        seq_nll = (nll * target_mask).sum(dim=1)
        lengths = target_mask.sum(dim=1)
        penalty = ((5.0 + lengths) / 6.0) ** self.alpha
        loss = (seq_nll / penalty).mean()
        return loss, (seq_nll.sum() / lengths.sum()).item()

    def fit(self, steps, gen):
        for step in range(steps):
            seqs, mask = make_batch(gen)
            loss, token_nll = self.length_penalised_nll(seqs, mask)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"step {step} penalised nll {loss.item():.4f} token ppl {np.exp(token_nll):.3f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = TinyCausalLM()
    LMTrainer(model).fit(6, gen)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
