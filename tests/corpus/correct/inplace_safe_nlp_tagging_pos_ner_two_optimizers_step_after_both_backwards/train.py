"""POS + NER tagger with two optimizers (shared encoder + POS head, NER head). Both losses
are backwarded on the shared graph first, and only then do the two optimizers step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, N_POS, N_NER, DIM = 40, 5, 3, 16


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.conv = nn.Conv1d(DIM, DIM, 3, padding=1)
        self.pos_head = nn.Linear(DIM, N_POS)
        self.ner_head = nn.Linear(DIM, N_NER)

    def encode(self, tokens):
        return torch.tanh(self.conv(self.emb(tokens).transpose(1, 2))).transpose(1, 2)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(17)
model = Tagger()
shared_params = [p for n, p in model.named_parameters() if not n.startswith("ner_head")]
opt_shared = torch.optim.Adam(shared_params, lr=5e-3)
opt_ner = torch.optim.SGD(model.ner_head.parameters(), lr=0.1)

for step in range(5):
    tokens = torch.randint(0, VOCAB, (4, 9), generator=gen)
    pos_tags, ner_tags = tokens % N_POS, (tokens // 11) % N_NER
    feats = model.encode(tokens)
    loss_pos = F.cross_entropy(model.pos_head(feats).reshape(-1, N_POS), pos_tags.reshape(-1))
    loss_ner = F.cross_entropy(model.ner_head(feats).reshape(-1, N_NER), ner_tags.reshape(-1))
    opt_shared.zero_grad()
    opt_ner.zero_grad()
    loss_pos.backward(retain_graph=True)
    loss_ner.backward()
    opt_shared.step()
    opt_ner.step()
    print(f"step {step} pos {loss_pos.item():.6f} ner {loss_ner.item():.6f}")

checksum = sum(p.detach().double().sum().item() for p in model.parameters())
print(f"checksum {checksum:.6f}")
