"""Sweep over the depth and learning rate of a tiny transformer intent classifier; the
runner reuses one Trainable and reconfigures it between trials."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from tune_lite import Trainable, run_sweep

VOCAB, SEQ, N_INTENTS = 24, 10, 3


class IntentClassifier(nn.Module):
    def __init__(self, d_model, n_layers):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d_model)
        self.pos = nn.Parameter(0.02 * torch.randn(SEQ, d_model))
        layer = nn.TransformerEncoderLayer(d_model, 2, 2 * d_model, dropout=0.0,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.out = nn.Linear(d_model, N_INTENTS)

    def forward(self, ids):
        h = self.encoder(self.embed(ids) + self.pos)
        return self.out(h.mean(1))


def intent_batch(n=16):
    """Intent k is signalled by keyword tokens 3k+1..3k+3 somewhere in the utterance."""
    y = torch.randint(0, N_INTENTS, (n,))
    ids = torch.randint(10, VOCAB, (n, SEQ))
    ids[torch.arange(n), torch.randint(0, SEQ, (n,))] = 3 * y + 1 + torch.randint(0, 3, (n,))
    return ids, y


class IntentTrainable(Trainable):
    def setup(self, config):
        self.model = IntentClassifier(config["d_model"], config["n_layers"])
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=config["lr"])

    def step(self):
        ids, y = intent_batch()
        loss = F.cross_entropy(self.model(ids), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def reset_config(self, new_config):
        if new_config["n_layers"] != self.config["n_layers"]:
            self.model = IntentClassifier(new_config["d_model"], new_config["n_layers"])
            self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=new_config["lr"])
        for group in self.optimizer.param_groups:
            group["lr"] = new_config["lr"]
        self.config = dict(new_config)
        return True


torch.manual_seed(0)
base = {"d_model": 16, "n_layers": 1, "lr": 1e-3}
trials = [{"n_layers": 2, "lr": 3e-3}, {"n_layers": 3, "lr": 1e-2}]
for overrides, loss in run_sweep(IntentTrainable, base, trials, iters_per_trial=3):
    print(f"trial {overrides} final loss {loss:.4f}")
