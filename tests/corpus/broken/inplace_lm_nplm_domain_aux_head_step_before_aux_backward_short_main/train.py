"""Neural probabilistic language model (Bengio-style: the previous CONTEXT tokens' embeddings
concatenated, one tanh layer, softmax over the vocabulary) with an auxiliary head that
predicts which corpus (prose or code) a window comes from, to shape the hidden layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, CONTEXT, EMB, HIDDEN, N_DOMAINS = 50, 3, 16, 64, 2
AUX_WEIGHT = 0.3


class NPLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.hidden = nn.Linear(CONTEXT * EMB, HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, VOCAB)
        self.domain_head = nn.Linear(HIDDEN, N_DOMAINS)

    def forward(self, context):
        h = torch.tanh(self.hidden(self.embed(context).flatten(1)))
        return self.lm_head(h), self.domain_head(h)


def windows(batch=32):
    domain = torch.randint(0, N_DOMAINS, (batch,))
    start = torch.randint(0, VOCAB // 2, (batch,)) + domain * (VOCAB // 2)
    tokens = (start[:, None] + torch.arange(CONTEXT + 1) * (1 + domain[:, None])) % VOCAB
    return tokens[:, :CONTEXT], tokens[:, CONTEXT], domain


def main(steps=5):
    torch.manual_seed(0)
    model = NPLM()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        context, next_token, domain = windows()
        lm_logits, domain_logits = model(context)
        lm_loss = F.cross_entropy(lm_logits, next_token)
        optimizer.zero_grad()
        lm_loss.backward(retain_graph=True)
        optimizer.step()
        aux_loss = AUX_WEIGHT * F.cross_entropy(domain_logits, domain)
        aux_loss.backward()
        optimizer.step()
        print(f"step {step} lm {lm_loss.item():.4f} ppl {lm_loss.exp().item():.1f} "
              f"aux {aux_loss.item():.4f}")
    return model


if __name__ == "__main__":
    main()
