"""Word-level GRU language model on a toy subject-verb-object grammar. make_scorer() was
written to rerank candidate sentences by their mean negative log-likelihood; the training
loop reuses the same scorer so that the training NLL and the reranking score agree."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, EMB, HID = 12, 16, 32
PAD, BOS, EOS = 0, 1, 11


class GRULanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB, padding_idx=PAD)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, tokens):
        hidden, _ = self.rnn(self.embed(tokens))
        return self.out(hidden)


def make_scorer(lm, pad_id=PAD):
    """Returns score(tokens) -> mean next-token NLL of every sentence in the batch."""
    def score(tokens):
        logits = lm(tokens[:, :-1])
        nll = F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:],
                              ignore_index=pad_id, reduction="none")
        mask = (tokens[:, 1:] != pad_id).float()
        return (nll * mask).sum(1) / mask.sum(1)
    return score


def make_sentences(n):
    subject = torch.randint(2, 5, (n,))
    verb = subject + 3                      # the verb agrees with its subject
    obj = torch.randint(8, 11, (n,))
    sentences = torch.stack([torch.full((n,), BOS), subject, verb, obj,
                             torch.full((n,), EOS)], dim=1)
    intransitive = torch.rand(n) < 0.3
    sentences[intransitive, 3] = EOS
    sentences[intransitive, 4] = PAD
    return sentences


lm = GRULanguageModel()
score = make_scorer(lm)
optimizer = torch.optim.Adam(lm.parameters(), lr=1e-2)

for step in range(6):
    batch = make_sentences(32)
    nll = score(batch)
    loss = nll.mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} nll {loss.item():.4f}")

candidates = make_sentences(4)
with torch.inference_mode():
    print("reranked candidates", score(candidates).argsort().tolist())
