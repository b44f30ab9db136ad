"""Domain adaptation of a small 'pretrained' GRU language model to support-ticket text:
the embedding table and the lower GRU layer are frozen, the upper layer and the output
projection are fine-tuned, and the optimizer only receives the trainable parameters."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TICKETS = ["printer offline again", "reset my password please", "vpn drops every hour",
           "password expired cannot login", "printer jams on tray two", "vpn slow from home"]
CHARS = sorted(set("".join(TICKETS)))
PAD = len(CHARS)


class StackedGRULM(nn.Module):
    def __init__(self, vocab, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab + 1, dim, padding_idx=PAD)
        self.layers = nn.ModuleList([nn.GRU(dim, dim, batch_first=True) for _ in range(2)])
        self.drop = nn.Dropout(0.1)
        self.proj = nn.Linear(dim, vocab + 1)

    def forward(self, tokens):
        h = self.embed(tokens)
        for layer in self.layers:
            h, _ = layer(self.drop(h))
        return self.proj(h)


def batchify():
    seqs = [torch.tensor([CHARS.index(c) for c in t]) for t in TICKETS]
    return nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=PAD)


def main():
    torch.manual_seed(0)
    model = StackedGRULM(len(CHARS))
    model.embed.requires_grad_(False)
    model.layers[0].requires_grad_(False)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=3e-3, weight_decay=0.01)
    print(f"trainable tensors {len(trainable)} of {len(list(model.parameters()))}")

    data = batchify()
    for step in range(6):
        logits = model(data[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), data[:, 1:].reshape(-1),
                               ignore_index=PAD)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        optimizer.step()
        print(f"step {step} nll {loss.item():.4f}")
    print(f"upper layer checksum {sum(p.sum().item() for p in model.layers[1].parameters()):.4f}")


if __name__ == "__main__":
    main()
