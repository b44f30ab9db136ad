"""ULMFiT-style fine-tuning of a pretrained GRU language-model encoder for review sentiment.
Long reviews are read in fixed-size chunks (truncated BPTT) with the hidden state detached
between chunks. Every layer has its own param group with a discriminative learning rate
(lr / 2.6 per layer going down), all layers except the classifier start frozen, and one more
layer is unfrozen at the start of each epoch (gradual unfreezing)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM, HIDDEN, CHUNK, DOC_LEN, BATCH, EPOCHS = 50, 16, 24, 8, 24, 8, 4
BASE_LR, DECAY = 4e-3, 2.6


class ReviewClassifier(nn.Module):
    def __init__(self, pretrained_vectors):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(pretrained_vectors, freeze=False)
        self.rnn1 = nn.GRU(DIM, HIDDEN, batch_first=True)
        self.rnn2 = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.classifier = nn.Sequential(nn.Linear(2 * HIDDEN, 16), nn.ReLU(), nn.Linear(16, 2))

    def layer_groups(self):
        """Bottom to top, as ULMFiT orders them."""
        return [self.embed, self.rnn1, self.rnn2, self.classifier]

    def encode(self, tokens, state):
        h1, h2 = state
        out, h1 = self.rnn1(self.embed(tokens), h1)
        out, h2 = self.rnn2(out, h2)
        return out, (h1, h2)


def reviews(n):
    """Positive reviews use tokens 25..49 more often, negative ones 1..24."""
    label = torch.randint(0, 2, (n,))
    bias = torch.where(label[:, None] == 1, 25, 1)
    tokens = torch.where(torch.rand(n, DOC_LEN) < 0.6,
                         bias + torch.randint(0, 24, (n, DOC_LEN)),
                         torch.randint(1, VOCAB, (n, DOC_LEN)))
    return tokens, label


def classify_document(model, tokens):
    state = (torch.zeros(1, tokens.shape[0], HIDDEN), torch.zeros(1, tokens.shape[0], HIDDEN))
    pooled_max, pooled_sum = None, 0.0
    for start in range(0, DOC_LEN, CHUNK):
        out, state = model.encode(tokens[:, start:start + CHUNK], state)
        state = tuple(h.detach() for h in state)   # truncated BPTT
        chunk_max = out.max(dim=1).values
        pooled_max = chunk_max if pooled_max is None else torch.maximum(pooled_max, chunk_max)
        pooled_sum = pooled_sum + out.sum(dim=1)
    return model.classifier(torch.cat([pooled_max, pooled_sum / DOC_LEN], dim=1))


model = ReviewClassifier(pretrained_vectors=0.5 * torch.randn(VOCAB, DIM))
groups = model.layer_groups()
optimizer = torch.optim.AdamW(
    [{"params": g.parameters(), "lr": BASE_LR / DECAY ** (len(groups) - 1 - i)}
     for i, g in enumerate(groups)],
    weight_decay=0.01)
for layer in groups[:-1]:
    layer.requires_grad_(False)

for epoch in range(EPOCHS):
    if epoch > 0:
        groups[-1 - epoch].requires_grad_(True)   # unfreeze one more layer, top down
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    for batch in range(2):
        tokens, label = reviews(BATCH)
        loss = F.cross_entropy(classify_document(model, tokens), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} trainable {trainable} loss {loss.item():.4f}")

with torch.no_grad():
    tokens, label = reviews(64)
    accuracy = (classify_document(model, tokens).argmax(dim=1) == label).float().mean()
print(f"accuracy {accuracy.item():.3f}")
print(f"parameter checksum {sum(p.sum() for p in model.parameters()).item():.4f}")
