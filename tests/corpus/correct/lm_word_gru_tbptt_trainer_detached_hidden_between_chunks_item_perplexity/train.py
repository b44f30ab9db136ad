# Word-level GRU language model trained with truncated BPTT: one long token
# stream cut into chunks of BPTT tokens; the hidden state flows from chunk to
# chunk but is detached at every chunk boundary.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HID, BPTT, BATCH = 60, 16, 32, 6, 4


class WordLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, tokens, hidden):
        y, hidden = self.rnn(self.emb(tokens), hidden)
        return self.out(y), hidden


class TBPTTTrainer:
    def __init__(self, model, lr=5e-3, clip=0.5):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.clip = clip
        self.hidden = None

    def repackage(self):
        if self.hidden is not None:
            self.hidden = self.hidden.detach()

    def train_epoch(self, stream):
        self.hidden = None
        nll, count = 0.0, 0
        for start in range(0, stream.shape[1] - 1 - BPTT + 1, BPTT):
            x = stream[:, start:start + BPTT]
            y = stream[:, start + 1:start + 1 + BPTT]
            self.repackage()
            logits, self.hidden = self.model(x, self.hidden)
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
            self.opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.opt.step()
            nll += loss.item() * y.numel()
            count += y.numel()
        return math.exp(nll / count)


if __name__ == "__main__":
    torch.manual_seed(3)
    g = torch.Generator().manual_seed(3)
    stream = torch.randint(0, VOCAB, (BATCH, 31), generator=g)
    trainer = TBPTTTrainer(WordLM())
    for epoch in range(3):
        ppl = trainer.train_epoch(stream)
        print(f"epoch {epoch} train ppl {ppl:.3f}")
    print("checksum", round(sum(p.sum().item() for p in trainer.model.parameters()), 4))
