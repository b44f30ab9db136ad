"""P-tuning a frozen tiny transformer encoder for sentiment classification: only the prompt
encoder (virtual tokens) and the classification head are trained."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from prompting import PromptEncoder, prepend_prompt

VOCAB, D_MODEL, SEQ, N_VIRTUAL, BATCH = 50, 16, 8, 4, 8
POSITIVE, NEGATIVE = torch.arange(5, 10), torch.arange(10, 15)


class TinyEncoder(nn.Module):
    """Stands in for the pretrained backbone."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.layer = nn.TransformerEncoderLayer(D_MODEL, nhead=2, dim_feedforward=32,
                                                dropout=0.0, batch_first=True)

    def forward(self, inputs_embeds):
        return self.layer(inputs_embeds)


def make_batch():
    labels = torch.randint(0, 2, (BATCH,))
    ids = torch.randint(15, VOCAB, (BATCH, SEQ))
    cue = torch.where(labels[:, None] == 1, POSITIVE[torch.randint(0, 5, (BATCH, 1))],
                      NEGATIVE[torch.randint(0, 5, (BATCH, 1))])
    ids[:, :2] = cue
    return ids, labels


def main():
    torch.manual_seed(0)
    backbone = TinyEncoder().requires_grad_(False)
    prompt_encoder = PromptEncoder(N_VIRTUAL, D_MODEL)
    head = nn.Linear(D_MODEL, 2)
    optimizer = torch.optim.AdamW(list(prompt_encoder.parameters()) + list(head.parameters()),
                                  lr=1e-2)
    # the virtual tokens do not depend on the input, so encode them once for the whole run
    prompt = prompt_encoder()
    for epoch in range(2):
        for _ in range(3):
            ids, labels = make_batch()
            hidden = backbone(prepend_prompt(prompt, backbone.embed(ids)))
            logits = head(hidden[:, :N_VIRTUAL].mean(dim=1))
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
