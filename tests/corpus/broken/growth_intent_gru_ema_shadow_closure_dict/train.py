"""Intent classification for a voice assistant (GRU over token ids). Evaluation uses an
exponential moving average of the weights, kept as a plain dict of tensors inside a
closure and applied with torch.func.functional_call."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
VOCAB, INTENTS, SEQ = 60, 4, 10


class IntentGRU(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, INTENTS)

    def forward(self, tokens):
        _, h = self.gru(self.embed(tokens))
        return self.out(h[-1])


def make_ema(model, decay=0.95):
    shadow = {name: p.detach().clone() for name, p in model.named_parameters()}

    def update():
        for name, p in model.named_parameters():
            shadow[name] = decay * shadow[name] + (1 - decay) * p

    @torch.no_grad()
    def evaluate(tokens, labels):
        logits = functional_call(model, shadow, (tokens,))
        return (logits.argmax(1) == labels).float().mean().item()

    return update, evaluate


def utterances(n):
    """Each intent has its own keyword range; the rest of the utterance is filler."""
    labels = torch.randint(0, INTENTS, (n,))
    tokens = torch.randint(20, VOCAB, (n, SEQ))
    keyword = 1 + 4 * labels.unsqueeze(1) + torch.randint(0, 4, (n, 2))
    tokens[:, [2, 6]] = keyword
    return tokens, labels


model = IntentGRU()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
ema_update, ema_eval = make_ema(model)
val_tokens, val_labels = utterances(64)
for step in range(10):
    tokens, labels = utterances(32)
    loss = F.cross_entropy(model(tokens), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema_update()
    if step % 3 == 2:
        print(f"step {step} loss {loss.item():.4f} ema val acc {ema_eval(val_tokens, val_labels):.3f}")
