"""Line OCR for meter-reading digits: a small CRNN (conv columns -> BiGRU -> per-column
classes) trained with CTC on synthetic digit strings rendered from fixed 8x4 glyphs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ocr_utils import char_error_rate, crnn_log_probs, greedy_decode

torch.manual_seed(0)
N_DIGITS, HEIGHT, GLYPH_W, WIDTH, MAX_LEN = 10, 8, 4, 28, 5
GLYPHS = (torch.rand(N_DIGITS, HEIGHT, GLYPH_W) > 0.5).float()


def render_lines(n):
    """Digit strings of 2-5 characters, glyphs separated by one blank column, plus noise."""
    images = torch.zeros(n, 1, HEIGHT, WIDTH)
    lengths = torch.randint(2, MAX_LEN + 1, (n,))
    labels = torch.randint(0, N_DIGITS, (n, MAX_LEN))
    for i in range(n):
        x = 1
        for d in labels[i, :lengths[i]].tolist():
            images[i, 0, :, x:x + GLYPH_W] = GLYPHS[d]
            x += GLYPH_W + 1
    images += 0.15 * torch.randn_like(images)
    targets = [labels[i, :lengths[i]] + 1 for i in range(n)]  # class 0 is the CTC blank
    return images, targets


class CRNN(nn.Module):
    def __init__(self, n_classes=N_DIGITS + 1, channels=16, hidden=24):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU())
        self.rnn = nn.GRU(channels * HEIGHT, hidden, batch_first=True, bidirectional=True)
        self.classify = nn.Linear(2 * hidden, n_classes)

    def forward(self, images):
        feats = self.conv(images)                      # (N, C, H, W)
        cols = feats.flatten(1, 2).transpose(1, 2)     # (N, W, C*H): one step per column
        out, _ = self.rnn(cols)
        return self.classify(out)


def train():
    model = CRNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    val_images, val_targets = render_lines(32)
    for epoch in range(2):
        model.train()
        for _ in range(3):
            images, targets = render_lines(24)
            target_lens = torch.tensor([len(t) for t in targets])
            log_probs, frames = crnn_log_probs(model, images)
            loss = F.ctc_loss(log_probs, torch.cat(targets), frames, target_lens,
                              blank=0, zero_infinity=True)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.inference_mode():
            val_log_probs, _ = crnn_log_probs(model, val_images)
        cer = char_error_rate(greedy_decode(val_log_probs), [t.tolist() for t in val_targets])
        print(f"epoch {epoch} ctc {loss.item():.4f} val CER {cer:.3f}")


if __name__ == "__main__":
    train()
