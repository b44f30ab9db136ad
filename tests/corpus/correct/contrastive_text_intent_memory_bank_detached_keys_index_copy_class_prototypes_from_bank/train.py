"""Intent classification for a support chatbot with an instance-discrimination memory bank:
every training utterance has a slot in a bank of normalised embeddings; each step contrasts
the current embeddings against the whole bank (the utterance's own slot is the positive),
classifies them against class prototypes averaged from the bank, and then writes the new
embeddings back into their slots with momentum. The bank only ever holds detached values,
written under no_grad, so each step's backward stays within the step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, N_INTENTS, N_UTTERANCES, MAX_LEN, DIM, TAU, MOMENTUM = 50, 4, 24, 7, 16, 0.1, 0.5


class UtteranceEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(VOCAB, 32, mode="mean", padding_idx=0)
        self.proj = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, DIM))
        self.log_scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, token_ids):
        return F.normalize(self.proj(self.bag(token_ids)), dim=-1)


class MemoryBank(nn.Module):
    def __init__(self, n, dim, labels):
        super().__init__()
        self.register_buffer("keys", F.normalize(torch.randn(n, dim), dim=-1))
        self.register_buffer("labels", labels)

    def prototypes(self):
        one_hot = F.one_hot(self.labels, N_INTENTS).float()
        return F.normalize(one_hot.t() @ self.keys, dim=-1)

    @torch.no_grad()
    def write(self, idx, embeddings):
        mixed = MOMENTUM * self.keys[idx] + (1 - MOMENTUM) * embeddings.detach()
        self.keys.index_copy_(0, idx, F.normalize(mixed, dim=-1))


def make_corpus(generator):
    labels = torch.arange(N_UTTERANCES) % N_INTENTS
    tokens = torch.randint(1, VOCAB, (N_UTTERANCES, MAX_LEN), generator=generator)
    tokens[torch.rand(N_UTTERANCES, MAX_LEN, generator=generator) < 0.2] = 0
    tokens[:, 0] = 1 + labels * 3
    tokens[:, 1] = 2 + labels * 3
    return tokens, labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(13)
    tokens, labels = make_corpus(gen)
    encoder = UtteranceEncoder()
    bank = MemoryBank(N_UTTERANCES, DIM, labels)
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=1e-2)
    for epoch in range(2):
        order = torch.randperm(N_UTTERANCES, generator=gen)
        for b in range(3):
            idx = order[b * 8:(b + 1) * 8]
            emb = encoder(tokens[idx])
            nce = F.cross_entropy(emb @ bank.keys.t() / TAU, idx)
            proto_logits = encoder.log_scale.exp() * emb @ bank.prototypes().t()
            cls = F.cross_entropy(proto_logits, labels[idx])
            loss = nce + cls
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            bank.write(idx, emb)
            acc = (proto_logits.argmax(1) == labels[idx]).float().mean().item()
            print(f"epoch {epoch} batch {b} nce {nce.item():.4f} cls {cls.item():.4f} acc {acc:.2f}")
    checksum = sum(p.double().sum().item() for p in encoder.parameters())
    print(f"param checksum {checksum:.6f} bank checksum {bank.keys.double().sum().item():.6f}")


if __name__ == "__main__":
    main()
