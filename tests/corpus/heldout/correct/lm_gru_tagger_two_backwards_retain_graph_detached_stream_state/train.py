"""Multi-task GRU over a token stream: next-token prediction plus a coarse word-class tagger
sharing the encoder. The two losses are backwarded separately (the first with
retain_graph=True) to log how much of the shared encoder's gradient each task contributes;
the GRU state is carried across chunks of the stream and detached at each chunk boundary."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, N_TAGS, EMB, HIDDEN, CHUNK, STREAMS = 50, 5, 16, 32, 12, 6


class SharedEncoderLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.gru = nn.GRU(EMB, HIDDEN, batch_first=True)
        self.lm_head = nn.Linear(HIDDEN, VOCAB)
        self.tag_head = nn.Linear(HIDDEN, N_TAGS)

    def forward(self, tokens, state):
        out, state = self.gru(self.embed(tokens), state)
        return self.lm_head(out), self.tag_head(out), state


def token_stream(length):
    tokens = torch.zeros(STREAMS, length, dtype=torch.long)
    tokens[:, 0] = torch.randint(0, VOCAB, (STREAMS,))
    for t in range(1, length):
        jump = torch.randint(1, 4, (STREAMS,))
        tokens[:, t] = (tokens[:, t - 1] * 3 + jump) % VOCAB
    return tokens


def grad_norm(params):
    return torch.sqrt(sum(p.grad.pow(2).sum() for p in params if p.grad is not None)).item()


model = SharedEncoderLM()
shared = list(model.embed.parameters()) + list(model.gru.parameters())
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
stream = token_stream(CHUNK * 6 + 1)
tags = stream % N_TAGS
state = torch.zeros(1, STREAMS, HIDDEN)

for i in range(6):
    x = stream[:, i * CHUNK:(i + 1) * CHUNK]
    y = stream[:, i * CHUNK + 1:(i + 1) * CHUNK + 1]
    state = state.detach()
    lm_logits, tag_logits, state = model(x, state)
    lm_loss = F.cross_entropy(lm_logits.reshape(-1, VOCAB), y.reshape(-1))
    tag_loss = F.cross_entropy(tag_logits.reshape(-1, N_TAGS), tags[:, i * CHUNK:(i + 1) * CHUNK].reshape(-1))
    optimizer.zero_grad()
    lm_loss.backward(retain_graph=True)
    lm_share = grad_norm(shared)
    lm_grads = [p.grad.clone() for p in shared]
    (0.5 * tag_loss).backward()
    tag_share = torch.sqrt(sum((p.grad - g).pow(2).sum() for p, g in zip(shared, lm_grads))).item()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"chunk {i}  lm {lm_loss.item():.4f}  tag {tag_loss.item():.4f}  "
          f"encoder grad norm lm {lm_share:.4f} tag {tag_share:.4f}")

print(f"parameter checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
