"""Caption synthetic 12x12 scenes ("a red square top left") with a frozen pretrained CNN
encoder and a trainable GRU decoder."""
import torch
import torch.nn.functional as F

from model import CaptionConfig, Captioner

COLOURS = ["red", "green", "blue"]
ROWS, COLS = ["top", "bottom"], ["left", "right"]
VOCAB = ["<pad>", "<bos>", "<eos>", "a", "square"] + COLOURS + ROWS + COLS
STOI = {w: i for i, w in enumerate(VOCAB)}
SIDE, BATCH, STEPS = 12, 16, 6


def make_batch(generator):
    colour = torch.randint(0, 3, (BATCH,), generator=generator)
    row = torch.randint(0, 2, (BATCH,), generator=generator)
    col = torch.randint(0, 2, (BATCH,), generator=generator)
    images = 0.1 * torch.randn(BATCH, 3, SIDE, SIDE, generator=generator)
    for i in range(BATCH):
        r0, c0 = 1 + 6 * int(row[i]), 1 + 6 * int(col[i])
        images[i, colour[i], r0:r0 + 4, c0:c0 + 4] += 1.0
    captions = [["<bos>", "a", COLOURS[c], "square", ROWS[r], COLS[k], "<eos>"]
                for c, r, k in zip(colour.tolist(), row.tolist(), col.tolist())]
    tokens = torch.tensor([[STOI[w] for w in cap] for cap in captions])
    return images, tokens


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(11)
    cfg = CaptionConfig(vocab_size=len(VOCAB))
    model = Captioner(cfg)
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=5e-3)
    for step in range(STEPS):
        images, tokens = make_batch(generator)
        inputs, targets = tokens[:, :-1], tokens[:, 1:]
        logits = model(images, inputs)
        loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), targets.reshape(-1),
                               ignore_index=STOI["<pad>"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} xent {loss.item():.4f}")
    sample = model.greedy(images[:2], STOI["<bos>"], steps=6)
    print("sample:", [" ".join(VOCAB[t] for t in row) for row in sample.tolist()])


if __name__ == "__main__":
    main()
