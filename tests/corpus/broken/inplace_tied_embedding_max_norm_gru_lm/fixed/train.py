"""Word-level GRU language model with tied input/output embeddings. The embedding rows are
kept inside the unit ball with max_norm, and the decoder reuses the embedding matrix as
its output projection at every time step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CORPUS = """the model reads the text one word at a time and predicts the next word
the weights of the input table are shared with the output layer to save parameters
a small model trained on a small text learns the common words first""".split()
SEQ_LEN, BATCH, DIM = 8, 4, 24


class TiedGRULM(nn.Module):
    def __init__(self, vocab_size, dim=DIM):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, max_norm=1.0)
        self.cell = nn.GRUCell(dim, dim)
        self.out_bias = nn.Parameter(torch.zeros(vocab_size))

    def forward(self, tokens):
        h = torch.zeros(tokens.size(0), self.cell.hidden_size)
        logits = []
        for t in range(tokens.size(1)):
            h = self.cell(self.embed(tokens[:, t]), h)
            logits.append(F.linear(h, self.embed.weight.clone(), self.out_bias))
        return torch.stack(logits, dim=1)


def get_batch(ids):
    starts = torch.randint(0, ids.numel() - SEQ_LEN - 1, (BATCH,))
    x = torch.stack([ids[s:s + SEQ_LEN] for s in starts])
    y = torch.stack([ids[s + 1:s + 1 + SEQ_LEN] for s in starts])
    return x, y


def main(steps=5):
    torch.manual_seed(0)
    vocab = sorted(set(CORPUS))
    ids = torch.tensor([vocab.index(w) for w in CORPUS])
    model = TiedGRULM(len(vocab))
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(steps):
        x, y = get_batch(ids)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(vocab)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    main()
