"""Review sentiment classifier fine-tuned from a (pretend) pretrained LSTM language model
with ULMFiT's gradual unfreezing and discriminative learning rates."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from finetune import discriminative_lrs, gradual_unfreeze

torch.manual_seed(0)
VOCAB, SEQ, EMB, HID = 60, 14, 16, 24
POSITIVE, NEGATIVE = range(2, 8), range(8, 14)


class SentimentLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB, padding_idx=0)
        self.rnn1 = nn.LSTM(EMB, HID, batch_first=True)
        self.rnn2 = nn.LSTM(HID, HID, batch_first=True)
        self.head = nn.Sequential(nn.Linear(2 * HID, HID), nn.ReLU(), nn.Linear(HID, 2))

    def forward(self, tokens):
        h, _ = self.rnn1(self.embed(tokens))
        h, _ = self.rnn2(h)
        pooled = torch.cat([h[:, -1], h.max(dim=1).values], dim=1)  # concat pooling
        return self.head(pooled)


def make_reviews(n):
    tokens = torch.randint(14, VOCAB, (n, SEQ))
    labels = torch.randint(0, 2, (n,))
    for i in range(n):
        words = POSITIVE if labels[i] == 1 else NEGATIVE
        pos = torch.randperm(SEQ)[:3]
        tokens[i, pos] = torch.tensor(list(words))[torch.randint(0, 6, (3,))]
    return tokens, labels


def main(epochs=4, batch=32):
    tokens, labels = make_reviews(128)
    model = SentimentLSTM()
    optimizer = torch.optim.AdamW(discriminative_lrs(model, base_lr=4e-3), weight_decay=0.01)
    for epoch in range(epochs):
        trainable = gradual_unfreeze(model, epoch)
        order = torch.randperm(len(tokens))
        for start in range(0, len(tokens), batch):
            idx = order[start:start + batch]
            loss = F.cross_entropy(model(tokens[idx]), labels[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {trainable} trainable groups, loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
