"""Small transformer text classifier: token + position embeddings, one encoder layer,
mean pooling and a linear classifier on top."""
import torch
import torch.nn as nn

VOCAB, DIM, MAX_LEN = 50, 32, 12


class TextClassifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, DIM)
        self.position = nn.Parameter(torch.zeros(MAX_LEN, DIM))
        self.encoder = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64,
                                                  dropout=0.0, batch_first=True)
        self.classifier = nn.Linear(DIM, num_classes)

    def forward(self, tokens):
        h = self.embedding(tokens) + self.position[:tokens.shape[1]]
        return self.classifier(self.encoder(h).mean(dim=1))


def pretrained_encoder_state(model):
    """Stand-in for the checkpoint of the language-model pretraining run."""
    generator = torch.Generator().manual_seed(1)
    return {name: 0.05 * torch.randn(t.shape, generator=generator)
            for name, t in model.state_dict().items() if not name.startswith("classifier")}
