"""Word-level GRU language model on a long, drifting document stream. A "topic" vector (a
decayed mean of recent input embeddings) is fed to the output layer so the model can follow
the drift. The stream is read batch after batch and the topic vector is kept between batches;
loss.backward() got retain_graph=True after the second batch complained."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, EMB, HIDDEN, SEQ, BATCH = 60, 16, 32, 12, 8
TOPIC_DECAY = 0.8


class TopicGRULM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.gru = nn.GRU(EMB, HIDDEN, batch_first=True)
        self.topic_proj = nn.Linear(EMB, HIDDEN)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens, topic):
        emb = self.embed(tokens)
        states, _ = self.gru(emb)
        states = states + self.topic_proj(topic).unsqueeze(1)
        return self.out(torch.tanh(states)), emb


def document_stream(n_batches):
    """Synthetic corpus whose word distribution drifts slowly, like one long document."""
    ids = torch.arange(VOCAB).float()
    for b in range(n_batches):
        centre = 10 + 3 * b
        probs = torch.exp(-((ids - centre) % VOCAB) / 12)
        tokens = torch.multinomial(probs, BATCH * (SEQ + 1), replacement=True)
        tokens = tokens.view(BATCH, SEQ + 1)
        yield tokens[:, :-1], tokens[:, 1:]


def train(n_batches=10):
    model = TopicGRULM()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    topic = torch.zeros(BATCH, EMB)
    for step, (inputs, targets) in enumerate(document_stream(n_batches)):
        logits, emb = model(inputs, topic)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        topic = TOPIC_DECAY * topic + (1 - TOPIC_DECAY) * emb.mean(dim=1)
        print(f"batch {step:2d}  loss {loss.item():.4f}  ppl {loss.exp().item():.2f}")
    return model


if __name__ == "__main__":
    train()
