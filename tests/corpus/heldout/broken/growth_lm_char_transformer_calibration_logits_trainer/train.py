"""Character-level causal transformer on a toy corpus. The trainer keeps the next-character
distributions of every training batch so that it can report the expected calibration error
(ECE) of the training run at the end."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
TEXT = "the quick brown fox jumps over the lazy dog. pack my box with five dozen liquor jugs. " * 8
CHARS = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(CHARS)}
DATA = torch.tensor([STOI[c] for c in TEXT])
VOCAB, CTX, DIM, BATCH = len(CHARS), 12, 24, 8


class TinyCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.zeros(CTX, DIM))
        layer = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.lm_head = nn.Linear(DIM, VOCAB)
        self.register_buffer("causal", nn.Transformer.generate_square_subsequent_mask(CTX))

    def forward(self, idx):
        h = self.tok(idx) + self.pos
        return self.lm_head(self.encoder(h, mask=self.causal, is_causal=True))


def expected_calibration_error(probs, targets, bins=10):
    confidence, predicted = probs.max(dim=-1)
    correct = (predicted == targets).float()
    ece = torch.zeros(())
    for lo in torch.linspace(0, 1, bins + 1)[:-1]:
        in_bin = (confidence > lo) & (confidence <= lo + 1 / bins)
        if in_bin.any():
            ece += in_bin.float().mean() * (confidence[in_bin].mean() - correct[in_bin].mean()).abs()
    return ece


class LMTrainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
        self.seen_probs, self.seen_targets = [], []

    def batch(self):
        starts = torch.randint(0, len(DATA) - CTX - 1, (BATCH,))
        x = torch.stack([DATA[s:s + CTX] for s in starts])
        y = torch.stack([DATA[s + 1:s + CTX + 1] for s in starts])
        return x, y

    def train_step(self):
        x, y = self.batch()
        logits = self.model(x)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.seen_probs.append(logits.softmax(-1).reshape(-1, VOCAB))
        self.seen_targets.append(y.reshape(-1))
        return loss.item()

    def run(self, steps):
        for step in range(steps):
            loss = self.train_step()
            if step % 3 == 0:
                print(f"step {step}  loss {loss:.4f}")
        ece = expected_calibration_error(torch.cat(self.seen_probs), torch.cat(self.seen_targets))
        print(f"training-run ECE {ece.item():.4f}")


LMTrainer(TinyCausalLM()).run(steps=10)
