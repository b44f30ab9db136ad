"""Trains the tiny decoder on a copy task (a random pattern, a separator, the pattern
again) and every other step samples a continuation with the KV cache, under no_grad, to
watch the copy behaviour appear."""
import torch
import torch.nn.functional as F

from model import TinyDecoder

VOCAB, SEP, PATTERN, BATCH = 16, 15, 5, 8


def copy_batch(generator):
    pattern = torch.randint(0, SEP, (BATCH, PATTERN), generator=generator)
    sep = torch.full((BATCH, 1), SEP)
    return torch.cat([pattern, sep, pattern], dim=1)


@torch.no_grad()
def sample(model, prompt, n_new):
    was_training = model.training
    model.eval()
    tokens = prompt
    logits = model(prompt, start_pos=0)
    for pos in range(prompt.size(1), prompt.size(1) + n_new):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        tokens = torch.cat([tokens, nxt], dim=1)
        logits = model(nxt, start_pos=pos)
    model.train(was_training)
    return tokens[:, prompt.size(1):]


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(3)
    model = TinyDecoder(vocab=VOCAB)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    probe = copy_batch(generator)[:2, :PATTERN + 1]
    for step in range(6):
        seq = copy_batch(generator)
        logits = model(seq[:, :-1])
        # only the copied half is predictable
        loss = F.cross_entropy(logits[:, PATTERN:].reshape(-1, VOCAB), seq[:, PATTERN + 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        line = f"step {step} loss {loss.item():.4f}"
        if step % 2 == 1:
            line += f" sample {sample(model, probe, PATTERN).tolist()}"
        print(line)
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
