"""Token-level unlikelihood training (Welleck et al.) for a small GRU language model on a
synthetic corpus prone to repetition. The softmax output is needed by autograd, so the
candidate masking and clamping work on a clone of it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, SEQ, ALPHA = 20, 16, 0.5


def batch(n=12):
    start = torch.randint(0, VOCAB, (n, 1))
    steps = torch.randint(1, 4, (n, SEQ))
    seq = (start + steps.cumsum(1)) % VOCAB
    return seq[:, :-1], seq[:, 1:]


class GRULM(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, VOCAB)

    def forward(self, tokens):
        return self.out(self.rnn(self.embed(tokens))[0])


def previous_token_candidates(inputs, targets):
    """cand[b, t, v] is True when token v occurred before position t and is not the target."""
    seen = F.one_hot(inputs, VOCAB).cumsum(1).clamp(max=1).bool()
    return seen & ~F.one_hot(targets, VOCAB).bool()


def losses(model, inputs, targets):
    logits = model(inputs)
    mle = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
    probs = logits.softmax(-1)
    cand_probs = probs.clone()
    cand_probs.masked_fill_(~previous_token_candidates(inputs, targets), 0.0)
    one_minus = 1.0 - cand_probs
    one_minus.clamp_(min=1e-5)
    unlikelihood = -torch.log(one_minus).sum(-1).mean()
    return mle, unlikelihood, probs


def train(steps=6):
    model = GRULM()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(steps):
        inputs, targets = batch()
        mle, ul, probs = losses(model, inputs, targets)
        loss = mle + ALPHA * ul
        opt.zero_grad()
        loss.backward()
        opt.step()
        top1 = (probs.argmax(-1) == targets).float().mean().item()
        print(f"step {step} mle {mle.item():.4f} ul {ul.item():.4f} top1 {top1:.3f}")
    print(f"checksum {sum(p.detach().sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    train()
