"""Minimal full-batch trainer for node-level tasks."""
import copy

import torch.nn.functional as F


class NodeTrainer:
    def __init__(self, model, optimizer, adj, epochs=6):
        # work on a private copy so the caller's model can be reused as the
        # untrained baseline in the comparison table
        self.model = copy.deepcopy(model)
        # rebuild the optimizer over the copy's parameters, same hyper-parameters
        self.optimizer = type(optimizer)(self.model.parameters(), **optimizer.defaults)
        self.adj = adj
        self.epochs = epochs

    def fit(self, x, y, train_mask):
        self.model.train()
        for epoch in range(self.epochs):
            pred = self.model(x, self.adj)
            loss = F.mse_loss(pred[train_mask], y[train_mask])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"epoch {epoch} train mse {loss.item():.4f}")
        return self.model
