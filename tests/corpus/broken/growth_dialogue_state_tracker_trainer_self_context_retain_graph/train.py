import torch
import torch.nn as nn

from model import TurnTracker

VOCAB, DIM, SLOTS, BATCH = 50, 12, 6, 4


class DSTTrainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr)
        self.crit = nn.BCEWithLogitsLoss()
        self.context = torch.zeros(BATCH, DIM)

    def reset_dialogue(self):
        self.context = torch.zeros(BATCH, DIM)

    def training_step(self, tokens, slots):
        self.context = self.model.step(self.context, tokens)
        logits = self.model.classify(self.context)
        loss = self.crit(logits, slots)
        self.opt.zero_grad()
        # retain_graph=True: the context from the previous turn is part of
        # this turn's graph and backward complained the second time
        loss.backward(retain_graph=True)
        self.opt.step()
        return loss.item()

    def fit(self, dialogues):
        for d, turns in enumerate(dialogues):
            self.reset_dialogue()
            for t, (tokens, slots) in enumerate(turns):
                loss = self.training_step(tokens, slots)
                print(f"dialogue {d} turn {t} loss {loss:.4f}")


def make_dialogues(n_dialogues=2, n_turns=4):
    g = torch.Generator().manual_seed(3)
    out = []
    for _ in range(n_dialogues):
        turns = []
        for _ in range(n_turns):
            tokens = torch.randint(0, VOCAB, (BATCH, 7), generator=g)
            slots = (torch.rand(BATCH, SLOTS, generator=g) > 0.6).float()
            turns.append((tokens, slots))
        out.append(turns)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = DSTTrainer(TurnTracker(VOCAB, DIM, SLOTS))
    trainer.fit(make_dialogues())
    print("checksum", round(sum(p.sum().item() for p in trainer.model.parameters()), 4))
