"""Chat-format fine-tuning of a small pretrained GRU language model. The chat format adds two
control tokens, <user> and <bot>, that only ever appear in the input, so grow_embedding()
extends the input embedding table by two rows initialised from the mean pretrained row; the
output head keeps predicting the base vocabulary. main() is the 6-step smoke run."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BASE_VOCAB, DIM, TURN_LEN, BATCH = 24, 32, 5, 16
SPECIALS = ["<user>", "<bot>"]


class TinyLM(nn.Module):
    def __init__(self, vocab, dim=DIM):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, BASE_VOCAB)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.lm_head(out)


def pretrained_lm():
    torch.manual_seed(123)  # stands in for loading the pretraining checkpoint
    return TinyLM(BASE_VOCAB)


def grow_embedding(old, n_new):
    new = nn.Embedding(old.num_embeddings + n_new, old.embedding_dim)
    with torch.no_grad():
        new.weight[:old.num_embeddings] = old.weight
        new.weight[old.num_embeddings:] = old.weight.mean(dim=0)
    return new


def chat_batch(n, user_id, bot_id):
    question = torch.randint(0, BASE_VOCAB, (n, TURN_LEN))
    answer = (question.flip(1) + 1) % BASE_VOCAB
    user = torch.full((n, 1), user_id)
    bot = torch.full((n, 1), bot_id)
    return torch.cat([user, question, bot, answer], dim=1)


def main(steps=6):
    model = pretrained_lm()
    torch.manual_seed(0)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-2, weight_decay=0.01)
    model.embed = grow_embedding(model.embed, len(SPECIALS))
    user_id, bot_id = BASE_VOCAB, BASE_VOCAB + 1

    history = []
    for step in range(steps):
        batch = chat_batch(BATCH, user_id, bot_id)
        inputs, targets = batch[:, :-1], batch[:, 1:]
        logits = model(inputs)
        predict = targets < BASE_VOCAB
        loss = F.cross_entropy(logits[predict], targets[predict])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
        print(f"step {step} loss {loss.item():.4f}")
    return history


if __name__ == "__main__":
    losses = main()
    print(f"first {losses[0]:.4f} last {losses[-1]:.4f}")
