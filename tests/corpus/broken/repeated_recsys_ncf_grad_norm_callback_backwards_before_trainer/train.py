"""Neural collaborative filtering (GMF + MLP towers) on synthetic clicks with sampled
negatives, trained through a callback-driven Trainer."""
import torch
import torch.nn as nn

from callbacks import GradNormMonitor, LossHistory
from trainer import Trainer

N_USERS, N_ITEMS, DIM = 40, 60, 8


class NeuMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.gmf_user = nn.Embedding(N_USERS, DIM)
        self.gmf_item = nn.Embedding(N_ITEMS, DIM)
        self.mlp_user = nn.Embedding(N_USERS, DIM)
        self.mlp_item = nn.Embedding(N_ITEMS, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 16), nn.ReLU(), nn.Linear(16, DIM), nn.ReLU())
        self.out = nn.Linear(2 * DIM, 1)

    def forward(self, users, items):
        gmf = self.gmf_user(users) * self.gmf_item(items)
        mlp = self.mlp(torch.cat([self.mlp_user(users), self.mlp_item(items)], dim=1))
        return self.out(torch.cat([gmf, mlp], dim=1)).squeeze(1)


def make_batches(n_batches=4, batch=32, negatives=2):
    taste = torch.randn(N_USERS, 4)
    style = torch.randn(N_ITEMS, 4)
    batches = []
    for _ in range(n_batches):
        users = torch.randint(0, N_USERS, (batch,))
        items = (taste[users] @ style.t()).argmax(1)
        neg_users = users.repeat(negatives)
        neg_items = torch.randint(0, N_ITEMS, (batch * negatives,))
        labels = torch.cat([torch.ones(batch), torch.zeros(batch * negatives)])
        batches.append((torch.cat([users, neg_users]), torch.cat([items, neg_items]), labels))
    return batches


def main():
    torch.manual_seed(2)
    model = NeuMF()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    history, grad_norms = LossHistory(), GradNormMonitor(every=2)
    trainer = Trainer(model, optimizer, callbacks=[history, grad_norms])
    trainer.fit(make_batches(), epochs=2)
    print("grad norms", [round(n, 4) for n in grad_norms.norms])


if __name__ == "__main__":
    main()
