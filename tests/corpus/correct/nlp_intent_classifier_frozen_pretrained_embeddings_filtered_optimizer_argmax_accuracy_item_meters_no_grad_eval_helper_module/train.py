"""Intent classification for a voice assistant on top of frozen pretrained word vectors.

Only the BiGRU encoder and the classifier are trained; the embedding table comes from a
pretraining run and is kept fixed (requires_grad=False, left out of the optimizer).
Everything that leaves autograd (.item(), float(), argmax, .tolist(), NumPy) is only used
for logging and metrics; the loss that is backwarded is the cross-entropy on the logits.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from evaluation import evaluate

VOCAB, DIM, N_INTENTS, LENGTH = 60, 16, 4, 8


class IntentClassifier(nn.Module):
    def __init__(self, pretrained_vectors, hidden=16):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(pretrained_vectors, freeze=True)
        self.encoder = nn.GRU(DIM, hidden, batch_first=True, bidirectional=True)
        self.classifier = nn.Linear(2 * hidden, N_INTENTS)

    def forward(self, tokens):
        states, _ = self.encoder(self.embed(tokens))
        return self.classifier(states.mean(dim=1))


def utterances(n, gen):
    """Each intent owns a band of keywords; the rest of the utterance is filler."""
    labels = torch.randint(0, N_INTENTS, (n,), generator=gen)
    tokens = torch.randint(0, 20, (n, LENGTH), generator=gen)
    slots = torch.randint(0, LENGTH, (n, 2), generator=gen)
    keywords = 20 + labels[:, None] * 10 + torch.randint(0, 10, (n, 2), generator=gen)
    tokens.scatter_(1, slots, keywords)
    return tokens, labels


class RunningMean:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n

    @property
    def mean(self):
        return self.total / max(self.count, 1)


def train(epochs=3, steps=3, batch=32):
    gen = torch.Generator().manual_seed(0)
    pretrained = torch.randn(VOCAB, DIM, generator=gen)
    model = IntentClassifier(pretrained)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(trainable, lr=1e-2)
    val_tokens, val_labels = utterances(64, gen)
    for epoch in range(epochs):
        loss_meter, acc_meter = RunningMean(), RunningMean()
        for _ in range(steps):
            tokens, labels = utterances(batch, gen)
            logits = model(tokens)
            loss = F.cross_entropy(logits, labels, label_smoothing=0.05)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_meter.update(loss.item(), len(labels))
            acc_meter.update(float((logits.argmax(dim=-1) == labels).float().mean()), len(labels))
        metrics = evaluate(model, val_tokens, val_labels, N_INTENTS)
        print(f"epoch {epoch} loss {loss_meter.mean:.4f} train acc {acc_meter.mean:.3f} "
              f"val acc {metrics['acc']:.3f} conf {metrics['mean_conf']:.3f} "
              f"recall {metrics['per_class_recall']}")
    return model


torch.manual_seed(0)
model = train()
print(f"embedding frozen: {not model.embed.weight.requires_grad}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
