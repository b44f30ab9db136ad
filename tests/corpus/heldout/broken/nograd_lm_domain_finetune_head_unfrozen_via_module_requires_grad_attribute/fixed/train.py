"""Domain adaptation of a (pretend) pretrained GRU language model to clinical-note style text:
freeze the backbone, fine-tune only the output head for a few steps."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HIDDEN, SEQ, BATCH = 64, 24, 48, 12, 6


class GRULanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.GRU(EMB, HIDDEN, num_layers=2, batch_first=True)
        self.lm_head = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens):
        h, _ = self.rnn(self.embedding(tokens))
        return self.lm_head(h)


class HeadFineTuner:
    def __init__(self, model, lr=5e-3):
        self.model = model
        for p in self.model.parameters():
            p.requires_grad = False
        self.model.lm_head.requires_grad_(True)
        self.optimizer = torch.optim.AdamW(self.model.lm_head.parameters(), lr=lr)

    def step(self, tokens):
        logits = self.model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def domain_batches(n):
    gen = torch.Generator().manual_seed(3)
    for _ in range(n):
        first = torch.randint(0, VOCAB // 2, (BATCH, 1), generator=gen)
        yield (first * 5 + 7 * torch.arange(SEQ + 1)) % VOCAB


def main():
    torch.manual_seed(0)
    model = GRULanguageModel()
    tuner = HeadFineTuner(model)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable parameters: {trainable}")
    for i, tokens in enumerate(domain_batches(5)):
        loss = tuner.step(tokens)
        print(f"step {i} loss {loss:.4f} ppl {math.exp(loss):.2f}")


if __name__ == "__main__":
    main()
