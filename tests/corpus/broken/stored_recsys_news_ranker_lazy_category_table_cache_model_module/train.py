"""Train the click model on impressions: one clicked article and three skipped ones each."""
import torch
import torch.nn.functional as F

from model import ClickModel

torch.manual_seed(3)
VOCAB, N_CAT, TITLE_LEN, HIST, CANDS = 50, 6, 5, 4, 4


def impressions(n_batches, batch_size):
    for _ in range(n_batches):
        hist_titles = torch.randint(0, VOCAB, (batch_size, HIST, TITLE_LEN))
        hist_cats = torch.randint(0, N_CAT, (batch_size, HIST))
        cand_titles = torch.randint(0, VOCAB, (batch_size, CANDS, TITLE_LEN))
        cand_cats = torch.randint(0, N_CAT, (batch_size, CANDS))
        # the clicked article (slot 0) shares the category the user read most recently
        cand_cats[:, 0] = hist_cats[:, -1]
        yield hist_titles, hist_cats, cand_titles, cand_cats


def train(model, epochs=2, batches=3):
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(epochs):
        for step, batch in enumerate(impressions(batches, batch_size=8)):
            scores = model(*batch)
            target = torch.zeros(scores.shape[0], dtype=torch.long)
            loss = F.cross_entropy(scores, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(ClickModel(VOCAB, N_CAT))
