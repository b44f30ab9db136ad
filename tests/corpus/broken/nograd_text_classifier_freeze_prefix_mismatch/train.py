"""Sentiment classification by linear probing: the pretrained embedding and encoder are
frozen and only the classification head is trained."""
import torch
import torch.nn.functional as F

from model import MAX_LEN, VOCAB, TextClassifier, pretrained_encoder_state

torch.manual_seed(0)
POSITIVE, NEGATIVE = torch.arange(0, 10), torch.arange(10, 20)


def make_reviews(n):
    labels = torch.randint(0, 2, (n,))
    tokens = torch.randint(20, VOCAB, (n, MAX_LEN))
    cue = torch.where(labels[:, None] == 1, POSITIVE[torch.randint(0, 10, (n, 3))],
                      NEGATIVE[torch.randint(0, 10, (n, 3))])
    tokens[:, :3] = cue
    return tokens, labels


model = TextClassifier(num_classes=2)
model.load_state_dict(pretrained_encoder_state(model), strict=False)

# linear probe: freeze everything except the head
for name, param in model.named_parameters():
    if not name.startswith("head"):
        param.requires_grad = False
optimizer = torch.optim.AdamW(model.classifier.parameters(), lr=5e-3)

for epoch in range(3):
    for _ in range(2):
        tokens, labels = make_reviews(32)
        loss = F.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
