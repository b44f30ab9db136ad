"""Card-level fraud scoring on a transaction stream.

Every card has its own GRU state that summarises its spending history. Each mini-batch holds
the next transaction of a handful of cards; the state of a card is looked up in a dict keyed
by card id, updated with the new transaction, scored, and written back for the card's next
transaction.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CARDS, N_FEATS, HIDDEN, CARDS_PER_BATCH = 10, 6, 16, 4


class CardScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(N_FEATS, HIDDEN), nn.Tanh())
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.score = nn.Linear(HIDDEN, 1)

    def forward(self, txn, h):
        h = self.cell(self.embed(txn), h)
        return self.score(h).squeeze(-1), h


def transaction_stream(n_batches, generator):
    """Yields (card_ids, features, is_fraud): amount, hour, merchant risk, distance, ..."""
    fraud_prone = torch.rand(N_CARDS, generator=generator) < 0.3
    for _ in range(n_batches):
        cards = torch.randperm(N_CARDS, generator=generator)[:CARDS_PER_BATCH]
        feats = torch.randn(CARDS_PER_BATCH, N_FEATS, generator=generator)
        label = (fraud_prone[cards] & (feats[:, 0] > -0.2)).float()
        feats[:, 0] += 1.5 * label
        yield cards.tolist(), feats, label


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = CardScorer()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    card_state = {}
    pos_weight = torch.tensor(2.0)

    for step, (cards, feats, label) in enumerate(transaction_stream(6, gen)):
        h_prev = torch.stack([card_state.get(c, torch.zeros(HIDDEN)) for c in cards])
        logits, h_new = model(feats, h_prev)
        loss = F.binary_cross_entropy_with_logits(logits, label, pos_weight=pos_weight)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for i, c in enumerate(cards):
            card_state[c] = h_new[i]
        print(f"step {step} cards {cards} loss {loss.item():.4f} known cards {len(card_state)}")


if __name__ == "__main__":
    main()
