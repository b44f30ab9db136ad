"""Small transformer text classifier: token + position embeddings, one encoder layer,
mean pooling and a linear classifier."""
import torch
import torch.nn as nn


class TextClassifier(nn.Module):
    def __init__(self, vocab_size, n_classes, d_model=16, max_len=32):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, d_model)
        self.pos_emb = nn.Embedding(max_len, d_model)
        self.encoder = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=32,
                                                  dropout=0.0, batch_first=True)
        self.classifier = nn.Linear(d_model, n_classes)

    def forward(self, tokens):
        pos = torch.arange(tokens.shape[1])
        h = self.encoder(self.tok_emb(tokens) + self.pos_emb(pos))
        return self.classifier(h.mean(dim=1))


def pretrained_encoder_state(model):
    """Stand-in for the checkpoint of the masked-LM pre-training run."""
    g = torch.Generator().manual_seed(1)
    return {k: torch.randn(v.shape, generator=g) * 0.1 if k.endswith("weight") else v
            for k, v in model.state_dict().items() if not k.startswith("classifier")}
