"""Next-token training of the MoE language model on a toy corpus of arithmetic-like
token patterns; the expert load is logged every step."""
import torch
import torch.nn.functional as F

from model import MoEBlockLM

torch.manual_seed(0)
VOCAB, SEQ_LEN, BATCH, STEPS = 24, 16, 8, 6


def make_batch():
    start = torch.randint(0, VOCAB, (BATCH, 1))
    stride = torch.randint(1, 4, (BATCH, 1))
    seq = (start + stride * torch.arange(SEQ_LEN + 1)) % VOCAB
    return seq[:, :-1], seq[:, 1:]


model = MoEBlockLM(VOCAB, max_len=SEQ_LEN)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
for step in range(STEPS):
    inputs, targets = make_batch()
    logits = model(inputs)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    load = " ".join(f"{x:.2f}" for x in model.moe.last_load.tolist())
    print(f"step {step} loss {loss.item():.4f} expert load [{load}]")
