"""Word-level LSTM LM trained with truncated BPTT: the corpus is laid out as BATCH parallel
streams, consumed in BPTT-length windows; the LSTM state flows from window to window but
gradients stop at each window boundary."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HIDDEN, BPTT, BATCH = 36, 24, 48, 7, 4


class LSTMLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, HIDDEN, num_layers=2, batch_first=True, dropout=0.1)
        self.decoder = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens, state):
        out, state = self.lstm(self.embed(tokens), state)
        return self.decoder(out), state


def batchify(stream, batch):
    n = stream.numel() // batch
    return stream[:n * batch].view(batch, n)


class TBPTTTrainer:
    def __init__(self, model, clip=0.5):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.5)
        self.clip = clip
        self.state = None

    def repackage(self, state):
        return tuple(s.detach() for s in state)

    def run_epoch(self, data):
        self.model.train()
        self.state = None
        total, count = 0.0, 0
        for start in range(0, data.size(1) - 1, BPTT):
            seq_len = min(BPTT, data.size(1) - 1 - start)
            inputs = data[:, start:start + seq_len]
            targets = data[:, start + 1:start + 1 + seq_len]
            state = None if self.state is None else self.repackage(self.state)
            logits, self.state = self.model(inputs, state)
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
            self.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.optimizer.step()
            total += loss.item() * seq_len
            count += seq_len
        return total / count


if __name__ == "__main__":
    torch.manual_seed(0)
    grammar = torch.randint(0, VOCAB, (VOCAB,))  # each token has a preferred successor
    tokens = [0]
    for _ in range(4 * 22):
        nxt = grammar[tokens[-1]] if torch.rand(()) < 0.8 else torch.randint(0, VOCAB, ())
        tokens.append(int(nxt))
    data = batchify(torch.tensor(tokens), BATCH)
    model = LSTMLanguageModel()
    trainer = TBPTTTrainer(model)
    for epoch in range(3):
        avg = trainer.run_epoch(data)
        print(f"epoch {epoch}: loss {avg:.4f} ppl {math.exp(avg):.2f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")
