"""GRU next-token LM trained with FGM adversarial training on the token embeddings
(perturb the embedding along its gradient, backward the adversarial loss, restore)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HIDDEN, SEQ = 30, 24, 48, 12


class GRULanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.GRU(EMB, HIDDEN, batch_first=True)
        self.proj = nn.Linear(HIDDEN, VOCAB)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.proj(out)


class FGM:
    """Fast Gradient Method on a named embedding parameter."""

    def __init__(self, model, param_name="embed.weight", epsilon=0.5):
        self.model = model
        self.param_name = param_name
        self.epsilon = epsilon
        self.backup = {}

    def attack(self):
        for name, param in self.model.named_parameters():
            if name == self.param_name and param.grad is not None:
                self.backup[name] = param.data.clone()
                norm = torch.norm(param.grad)
                if norm > 0:
                    param.data.add_(self.epsilon * param.grad / norm)

    def restore(self):
        for name, param in self.model.named_parameters():
            if name in self.backup:
                param.data = self.backup[name]
        self.backup = {}


class AdversarialTrainer:
    def __init__(self, model, lr=2e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.fgm = FGM(model)
        self.history = []

    def compute_loss(self, tokens):
        logits = self.model(tokens[:, :-1])
        return F.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))

    def train_epoch(self, batches):
        for tokens in batches:
            loss = self.compute_loss(tokens)
            self.optimizer.zero_grad()
            loss.backward()
            self.fgm.attack()
            adv_loss = self.compute_loss(tokens)
            (loss + adv_loss).backward()
            self.fgm.restore()
            self.optimizer.step()
            self.history.append((loss.item(), adv_loss.item()))

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            self.train_epoch(batches)
            clean, adv = zip(*self.history[-len(batches):])
            print(f"epoch {epoch}: clean {sum(clean) / len(clean):.4f} adv {sum(adv) / len(adv):.4f}")


def synthetic_batches(n_batches=3, batch_size=8):
    # arithmetic-progression "sentences": next token = previous + stride (mod VOCAB)
    batches = []
    for _ in range(n_batches):
        start = torch.randint(0, VOCAB, (batch_size, 1))
        stride = torch.randint(1, 4, (batch_size, 1))
        batches.append((start + stride * torch.arange(SEQ)) % VOCAB)
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = AdversarialTrainer(GRULanguageModel())
    trainer.fit(synthetic_batches(), epochs=2)
