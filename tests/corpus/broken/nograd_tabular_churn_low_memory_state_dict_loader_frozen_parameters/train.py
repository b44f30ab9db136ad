"""Telecom churn model adapted to a new market: the scorer trained on the home market is
restored from its checkpoint and fine-tuned on a few batches of the new market's customers
(tenure, monthly charges, support calls, contract type, ...)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ckpt_utils import count_trainable, load_state_dict_low_memory

N_NUMERIC, N_CONTRACTS = 5, 3


class ChurnNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.contract = nn.Embedding(N_CONTRACTS, 4)
        self.norm = nn.BatchNorm1d(N_NUMERIC)
        self.mlp = nn.Sequential(nn.Linear(N_NUMERIC + 4, 24), nn.ReLU(), nn.Linear(24, 1))

    def forward(self, numeric, contract):
        h = torch.cat([self.norm(numeric), self.contract(contract)], dim=1)
        return self.mlp(h).squeeze(1)


def customers(n, gen):
    numeric = torch.randn(n, N_NUMERIC, generator=gen) * torch.tensor([12.0, 20.0, 1.5, 3.0, 1.0])
    numeric = numeric + torch.tensor([24.0, 70.0, 2.0, 5.0, 0.0])
    contract = torch.randint(0, N_CONTRACTS, (n,), generator=gen)
    logit = -0.08 * numeric[:, 0] + 0.03 * numeric[:, 1] + 0.6 * numeric[:, 2] - 1.2 * contract
    churned = (torch.sigmoid(logit - 1.0) > torch.rand(n, generator=gen)).float()
    return numeric, contract, churned


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    home_market = ChurnNet()
    checkpoint = {k: v.clone() for k, v in home_market.state_dict().items()}

    model = load_state_dict_low_memory(ChurnNet(), checkpoint)
    print(f"trainable parameters: {count_trainable(model)}")
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    pos_weight = torch.tensor(2.0)
    for epoch in range(3):
        numeric, contract, churned = customers(64, gen)
        model.train()
        for start in range(0, 64, 32):
            logits = model(numeric[start:start + 32], contract[start:start + 32])
            loss = F.binary_cross_entropy_with_logits(logits, churned[start:start + 32],
                                                      pos_weight=pos_weight)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
