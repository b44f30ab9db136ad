import torch
import torch.nn as nn

from model import SOHForecaster


def pack_stream(n_chunks=4, packs=6, chunk_len=5, n_feat=7, seed=9):
    g = torch.Generator().manual_seed(seed)
    fade = torch.rand(packs, 1, generator=g) * 0.01
    chunks = []
    for c in range(n_chunks):
        x = torch.randn(packs, chunk_len, n_feat, generator=g)
        cycle_idx = torch.arange(c * chunk_len, (c + 1) * chunk_len, dtype=torch.float32)
        soh = 1.0 - fade * cycle_idx + 0.002 * x[..., 0]
        chunks.append((x, soh))
    return chunks


torch.manual_seed(2)
model = SOHForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.MSELoss()

for epoch in range(2):
    model.reset_stream()
    for i, (x, soh) in enumerate(pack_stream()):
        pred = model(x)
        loss = crit(pred, soh)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} chunk {i} mse {loss.item():.5f}")

print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
