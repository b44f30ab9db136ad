"""CRNN + CTC line recogniser for a toy glyph set (serial numbers printed on parts)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from train_utils import backward_with_warmup, clip_and_step

N_GLYPHS, HEIGHT, WIDTH = 5, 8, 32


def glyph_bank(generator):
    return (torch.rand(N_GLYPHS, HEIGHT, 4, generator=generator) > 0.5).float()


def line_batch(bank, batch, generator):
    images = torch.zeros(batch, 1, HEIGHT, WIDTH)
    targets, lengths = [], []
    for b in range(batch):
        n = int(torch.randint(2, 5, (1,), generator=generator))
        seq = torch.randint(0, N_GLYPHS, (n,), generator=generator)
        x = 1
        for g in seq.tolist():
            images[b, 0, :, x:x + 4] = bank[g]
            x += 6
        targets.append(seq + 1)  # 0 is the CTC blank
        lengths.append(n)
    images += 0.1 * torch.randn(images.shape, generator=generator)
    return images, torch.cat(targets), torch.tensor(lengths)


class CRNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 2)),
        )
        self.rnn = nn.GRU(32 * (HEIGHT // 4), hidden, bidirectional=True)
        self.out = nn.Linear(2 * hidden, N_GLYPHS + 1)

    def forward(self, images):
        f = self.cnn(images)                      # (B, C, H', W')
        f = f.permute(3, 0, 1, 2).flatten(2)      # (T=W', B, C*H')
        h, _ = self.rnn(f)
        return F.log_softmax(self.out(h), dim=-1)  # (T, B, classes)


def train_epoch(model, optimizer, bank, gen, epoch, global_step, steps=3):
    for _ in range(steps):
        images, targets, target_lengths = line_batch(bank, 8, gen)
        log_probs = model(images)
        input_lengths = torch.full((images.shape[0],), log_probs.shape[0], dtype=torch.long)
        loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, zero_infinity=True)
        optimizer.zero_grad()
        backward_with_warmup(loss, global_step)
        norm = clip_and_step(model, optimizer)
        print(f"epoch {epoch} step {global_step} ctc {loss.item():.4f} grad norm {norm:.3f}")
        global_step += 1
    return global_step


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(8)
    bank = glyph_bank(gen)
    model = CRNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    step = 0
    for epoch in range(2):
        step = train_epoch(model, optimizer, bank, gen, epoch, step)


if __name__ == "__main__":
    main()
