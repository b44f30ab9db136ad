"""Linear probing: load the pre-trained encoder, freeze it, and train only the classifier
on a toy sentiment task."""
import torch
import torch.nn.functional as F

from model import TextClassifier, pretrained_encoder_state

torch.manual_seed(0)
VOCAB, CLASSES, SEQ = 50, 2, 10
POSITIVE = torch.arange(0, 10)


def make_batch(n):
    tokens = torch.randint(10, VOCAB, (n, SEQ))
    labels = torch.randint(0, CLASSES, (n,))
    tokens[labels == 1, :3] = POSITIVE[torch.randint(0, 10, (int(labels.sum()), 3))]
    return tokens, labels


model = TextClassifier(VOCAB, CLASSES)
model.load_state_dict(pretrained_encoder_state(model), strict=False)
for name, param in model.named_parameters():
    if not name.startswith("head"):
        param.requires_grad = False
optimizer = torch.optim.AdamW(model.classifier.parameters(), lr=1e-2)

for step in range(6):
    tokens, labels = make_batch(32)
    logits = model(tokens)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(1) == labels).float().mean()
    print(f"step {step} loss {loss.item():.4f} acc {acc.item():.3f}")
