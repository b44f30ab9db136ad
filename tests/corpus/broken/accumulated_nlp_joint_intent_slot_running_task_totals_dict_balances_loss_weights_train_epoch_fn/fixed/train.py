"""Joint intent detection and slot filling for a voice assistant (toy vocabulary).

A shared GRU encoder feeds an utterance-level intent head and a token-level slot
tagger. The two losses live on different scales, so each batch is weighted by how
large each task's running loss has been so far this epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
VOCAB, N_INTENTS, N_TAGS, SEQ = 30, 4, 5, 7


class JointSLU(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.intent_head = nn.Linear(dim, N_INTENTS)
        self.slot_head = nn.Linear(dim, N_TAGS)

    def forward(self, tokens):
        states, last = self.encoder(self.embed(tokens))
        return self.intent_head(last[-1]), self.slot_head(states)


def make_batches(n_batches=4, batch=8):
    batches = []
    for _ in range(n_batches):
        tokens = torch.randint(0, VOCAB, (batch, SEQ))
        intent = tokens[:, 0] % N_INTENTS
        tags = (tokens // 6).clamp(max=N_TAGS - 1)
        batches.append((tokens, intent, tags))
    return batches


def train_epoch(model, optimizer, batches):
    running = {"intent": 0.0, "slots": 0.0}
    for step, (tokens, intent, tags) in enumerate(batches, 1):
        intent_logits, tag_logits = model(tokens)
        losses = {
            "intent": F.cross_entropy(intent_logits, intent),
            "slots": F.cross_entropy(tag_logits.flatten(0, 1), tags.flatten()),
        }
        for name, value in losses.items():
            running[name] += value.item()
        total = sum(running.values())
        # the task that has been lagging (larger running loss) gets the larger weight
        loss = sum(running[name] / total * losses[name] for name in losses)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return {name: float(value) / step for name, value in running.items()}


def main(epochs=3):
    model = JointSLU()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    batches = make_batches()
    for epoch in range(epochs):
        means = train_epoch(model, optimizer, batches)
        print(f"epoch {epoch} intent {means['intent']:.4f} slots {means['slots']:.4f}")
    print("checksum", sum(p.sum().item() for p in model.parameters()))


if __name__ == "__main__":
    main()
