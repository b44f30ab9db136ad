"""Link prediction on a synthetic two-community graph: embeddings from model.embed() are
scored with a dot product against sampled negative edges."""
import torch
import torch.nn.functional as F

from model import LinkGNN

torch.manual_seed(0)
N, FEAT = 40, 8

community = torch.arange(N) % 2
same = community[:, None] == community[None, :]
adj = ((torch.rand(N, N) < torch.where(same, 0.3, 0.03)).float().triu(1))
adj = adj + adj.t()
adj_mean = adj / adj.sum(1, keepdim=True).clamp_min(1)
x = torch.randn(N, FEAT) + 1.5 * community[:, None].float()
pos_edges = adj.triu(1).nonzero().t()

model = LinkGNN(FEAT, 16, 8)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    perm = torch.randperm(pos_edges.size(1))[:32]
    pos = pos_edges[:, perm]
    neg = torch.randint(0, N, (2, 32))
    z = model.embed(x, adj_mean)
    logits = torch.cat([model.score(z, pos), model.score(z, neg)])
    labels = torch.cat([torch.ones(32), torch.zeros(32)])
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} pos/neg acc {model.evaluate(x, adj_mean, pos, neg)}")
