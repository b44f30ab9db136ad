"""Mixture-of-Softmaxes (MoS) LSTM language model: the next-token distribution is a mixture of
K softmaxes, weighted by a prior computed from the same hidden state."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HIDDEN, N_EXPERTS, SEQ, BATCH = 40, 16, 32, 3, 10, 4
PRIOR_EPS = 1e-4


class MoSLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, HIDDEN, batch_first=True)
        self.prior = nn.Linear(HIDDEN, N_EXPERTS, bias=False)
        self.latent = nn.Linear(HIDDEN, N_EXPERTS * EMB)
        self.decoder = nn.Linear(EMB, VOCAB)

    def forward(self, tokens):
        h, _ = self.lstm(self.embed(tokens))
        latent = torch.tanh(self.latent(h)).view(*h.shape[:2], N_EXPERTS, EMB)
        expert_probs = F.softmax(self.decoder(latent), dim=-1)
        prior = F.softmax(self.prior(h), dim=-1)
        # keep every expert alive: mix the prior with a little uniform mass
        prior.add_(PRIOR_EPS).div_(1.0 + N_EXPERTS * PRIOR_EPS)
        probs = (prior.unsqueeze(-1) * expert_probs).sum(dim=2)
        return torch.log(probs.clamp_min(1e-8))


class LMTrainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.step_count = 0

    def step(self, tokens):
        self.model.train()
        log_probs = self.model(tokens[:, :-1])
        loss = F.nll_loss(log_probs.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.step_count += 1
        return loss.item()


def token_batches(n):
    gen = torch.Generator().manual_seed(7)
    for _ in range(n):
        start = torch.randint(0, VOCAB, (BATCH, 1), generator=gen)
        yield (start + 2 * torch.arange(SEQ + 1)) % VOCAB


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = LMTrainer(MoSLanguageModel())
    for tokens in token_batches(5):
        loss = trainer.step(tokens)
        print(f"step {trainer.step_count} nll {loss:.4f} ppl {math.exp(loss):.2f}")
