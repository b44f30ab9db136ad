"""Topic classifier (EmbeddingBag + MLP) on synthetic token bags, trained with gradient
accumulation: micro-batch losses are summed into a tensor for the current window, the
window mean is backwarded once per window, and the window total is reset after every
update. A float running total is kept separately for the progress log; a partial window
left at the end of an epoch is flushed with its own size."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, N_TOPICS, ACCUM_STEPS = 60, 3, 3


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(VOCAB, 16, mode="mean")
        self.head = nn.Sequential(nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, N_TOPICS))

    def forward(self, tokens, offsets):
        return self.head(self.bag(tokens, offsets))


def make_micro_batches(n, size, gen):
    batches = []
    for _ in range(n):
        labels = torch.randint(0, N_TOPICS, (size,), generator=gen)
        docs = []
        for y in labels.tolist():
            length = int(torch.randint(3, 9, (1,), generator=gen))
            topical = torch.randint(y * 20, y * 20 + 20, (length,), generator=gen)
            noise = torch.randint(0, VOCAB, (length,), generator=gen)
            docs.append(torch.where(torch.rand(length, generator=gen) < 0.7, topical, noise))
        offsets = torch.tensor([0] + [len(d) for d in docs[:-1]]).cumsum(0)
        batches.append((torch.cat(docs), offsets, labels))
    return batches


def apply_update(model, optimizer, window_loss, n_micro):
    optimizer.zero_grad()
    (window_loss / n_micro).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    micro_batches = make_micro_batches(5, 8, gen)
    model = BagClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-2)

    updates = 0
    for epoch in range(2):
        running, window_loss, n_micro = 0.0, None, 0
        for tokens, offsets, labels in micro_batches:
            loss = F.cross_entropy(model(tokens, offsets), labels)
            window_loss = loss if window_loss is None else window_loss + loss
            n_micro += 1
            running += loss.item()
            if n_micro == ACCUM_STEPS:
                apply_update(model, optimizer, window_loss, n_micro)
                updates += 1
                print(f"epoch {epoch} update {updates} window loss {window_loss.item() / n_micro:.4f}")
                window_loss, n_micro = None, 0
        if n_micro:
            apply_update(model, optimizer, window_loss, n_micro)
            updates += 1
            print(f"epoch {epoch} update {updates} partial window ({n_micro}) loss {window_loss.item() / n_micro:.4f}")
            window_loss, n_micro = None, 0
        print(f"epoch {epoch} mean micro-batch loss {running / len(micro_batches):.4f}")

    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
