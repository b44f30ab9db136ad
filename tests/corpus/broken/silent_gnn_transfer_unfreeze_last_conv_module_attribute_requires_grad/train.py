"""Fine-tune a GCN encoder pretrained on a source graph for node classification on a new
graph: the encoder is frozen except its top conv, which trains at a lower lr with the head."""
import torch
import torch.nn.functional as F

from gnn import GCNEncoder, NodeClassifier, normalized_adjacency
from transfer import param_groups, prepare_for_transfer

CFG = {"freeze_encoder": True, "unfreeze_top_conv": True, "encoder_lr": 2e-3, "head_lr": 1e-2}
N_NODES, N_FEATS, HIDDEN, N_CLASSES = 40, 8, 16, 3


def community_graph():
    """Three communities, dense inside, sparse across; features hint at the community."""
    y = torch.arange(N_NODES) % N_CLASSES
    src, dst = torch.randint(0, N_NODES, (2, 200))
    keep = (y[src] == y[dst]) | (torch.rand(200) < 0.1)
    a_hat = normalized_adjacency(torch.stack([src[keep], dst[keep]]), N_NODES)
    x = torch.randn(N_NODES, N_FEATS) + F.one_hot(y, N_FEATS).float()
    return x, a_hat, y


def train(model, x, a_hat, y, epochs=6):
    optimizer = torch.optim.Adam(param_groups(model, CFG))
    train_mask = torch.rand(N_NODES) < 0.6
    for epoch in range(epochs):
        logits = model(x, a_hat)
        loss = F.cross_entropy(logits[train_mask], y[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == y)[~train_mask].float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc:.3f}")


torch.manual_seed(0)
pretrained = GCNEncoder(N_FEATS, HIDDEN).state_dict()  # stands in for the source-graph checkpoint
encoder = GCNEncoder(N_FEATS, HIDDEN)
encoder.load_state_dict(pretrained)
model = prepare_for_transfer(NodeClassifier(encoder, HIDDEN, N_CLASSES), CFG)
x, a_hat, y = community_graph()
train(model, x, a_hat, y)
print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
