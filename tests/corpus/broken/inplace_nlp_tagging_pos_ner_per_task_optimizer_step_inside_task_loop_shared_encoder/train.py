import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, N_POS, N_NER = 50, 6, 4


class ConvEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim, padding_idx=0)
        self.conv = nn.Conv1d(dim, dim, 3, padding=1)

    def forward(self, tokens):
        x = self.emb(tokens).transpose(1, 2)
        return F.relu(self.conv(x)).transpose(1, 2)


class MultiTaskTagger(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.encoder = ConvEncoder(dim)
        self.heads = nn.ModuleDict({"pos": nn.Linear(dim, N_POS), "ner": nn.Linear(dim, N_NER)})


def synthetic_batch(gen, batch=4, length=7):
    tokens = torch.randint(1, VOCAB, (batch, length), generator=gen)
    return tokens, {"pos": tokens % N_POS, "ner": (tokens // 13) % N_NER}


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    model = MultiTaskTagger()
    # one optimizer per task, each also owns the shared encoder
    optimizers = {
        task: torch.optim.Adam(list(model.encoder.parameters()) + list(head.parameters()), lr=5e-3)
        for task, head in model.heads.items()
    }
    for step in range(5):
        tokens, tags = synthetic_batch(gen)
        feats = model.encoder(tokens)
        losses = {}
        for task, head in model.heads.items():
            logits = head(feats)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tags[task].reshape(-1))
            optimizers[task].zero_grad()
            loss.backward(retain_graph=True)
            optimizers[task].step()
            losses[task] = loss.item()
        print(f"step {step} pos {losses['pos']:.4f} ner {losses['ner']:.4f}")


if __name__ == "__main__":
    main()
