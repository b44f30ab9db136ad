"""Fine-tuning the small LLaMA-style model on a counting task (each token is the previous
plus a per-sequence stride, mod vocab), then greedy generation with the KV cache."""
import torch
import torch.nn.functional as F

from model import ModelArgs, Transformer

torch.manual_seed(0)
args = ModelArgs()
BATCH, SEQ = 8, 12


def counting_batch():
    start = torch.randint(0, args.vocab_size, (BATCH, 1))
    stride = torch.randint(1, 3, (BATCH, 1))
    return (start + stride * torch.arange(SEQ + 1)) % args.vocab_size


@torch.no_grad()
def generate(model, prompt, n_new):
    tokens = prompt
    logits = model(prompt, start_pos=0)
    for pos in range(prompt.size(1), prompt.size(1) + n_new):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        tokens = torch.cat([tokens, nxt], dim=1)
        logits = model(nxt, start_pos=pos)
    return tokens


model = Transformer(args)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(6):
    seq = counting_batch()
    logits = model(seq[:, :-1], start_pos=0)
    loss = F.cross_entropy(logits.reshape(-1, args.vocab_size), seq[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")

print("sample", generate(model, torch.tensor([[3, 5, 7]]), 5).tolist())
