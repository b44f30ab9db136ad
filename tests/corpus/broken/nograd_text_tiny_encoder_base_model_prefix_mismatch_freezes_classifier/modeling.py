"""A tiny transformer encoder in the style of a model hub library: a shared base class with
`base_model_prefix` / `base_model`, a bare encoder and a sequence-classification wrapper."""
import torch
import torch.nn as nn


class TinyConfig:
    def __init__(self, vocab=32, d_model=32, n_heads=4, n_layers=2, max_len=16, n_labels=2):
        self.vocab, self.d_model, self.n_heads = vocab, d_model, n_heads
        self.n_layers, self.max_len, self.n_labels = n_layers, max_len, n_labels


class TinyPreTrainedModel(nn.Module):
    base_model_prefix = ""

    @property
    def base_model(self):
        """The bare encoder inside a task model (the model itself when there is none)."""
        return getattr(self, self.base_model_prefix, self)


class TinyEncoder(TinyPreTrainedModel):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab, cfg.d_model)
        self.pos = nn.Embedding(cfg.max_len, cfg.d_model)
        layer = nn.TransformerEncoderLayer(cfg.d_model, cfg.n_heads, 2 * cfg.d_model,
                                           dropout=0.0, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, cfg.n_layers, enable_nested_tensor=False)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1])
        return self.layers(self.tok(ids) + self.pos(pos))


class TinyEncoderForSequenceClassification(TinyPreTrainedModel):
    base_model_prefix = "transformer"

    def __init__(self, cfg):
        super().__init__()
        self.encoder = TinyEncoder(cfg)
        self.classifier = nn.Sequential(nn.Linear(cfg.d_model, cfg.d_model), nn.Tanh(),
                                        nn.Linear(cfg.d_model, cfg.n_labels))

    def forward(self, ids):
        return self.classifier(self.encoder(ids)[:, 0])
