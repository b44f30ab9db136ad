"""Truncated BPTT on one long multivariate sensor stream with a GRU and two heads (next
step forecast, reconstruction of the current reading). The hidden state is carried from
chunk to chunk and detached at each chunk boundary. Inside a chunk the two losses are
backwarded separately, the first with retain_graph=True, so the gradient norm each one
contributes can be logged before the single optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
N_SENSORS, HIDDEN, CHUNK, N_CHUNKS, RECON_WEIGHT = 3, 24, 8, 6, 0.5


class TwoHeadGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(N_SENSORS, HIDDEN, batch_first=True)
        self.forecast = nn.Linear(HIDDEN, N_SENSORS)
        self.recon = nn.Linear(HIDDEN, N_SENSORS)

    def forward(self, x, h):
        out, h = self.gru(x, h)
        return self.forecast(out), self.recon(out), h


def grad_norm(model):
    return torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None]).norm()


t = torch.arange(CHUNK * N_CHUNKS + 1, dtype=torch.float32)
stream = torch.stack([torch.sin(t / 3), torch.cos(t / 5), torch.sin(t / 7) * 0.5], 1)
stream = (stream + 0.05 * torch.randn_like(stream))[None]

model = TwoHeadGRU()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
h = torch.zeros(1, 1, HIDDEN)
for c in range(N_CHUNKS):
    x = stream[:, c * CHUNK:(c + 1) * CHUNK]
    y = stream[:, c * CHUNK + 1:(c + 1) * CHUNK + 1]
    h = h.detach()
    pred, recon, h = model(x, h)
    forecast_loss = F.mse_loss(pred, y)
    recon_loss = RECON_WEIGHT * F.mse_loss(recon, x)
    optimizer.zero_grad()
    forecast_loss.backward(retain_graph=True)
    forecast_norm = grad_norm(model).item()
    recon_loss.backward()
    total_norm = grad_norm(model).item()
    optimizer.step()
    print(f"chunk {c} forecast {forecast_loss.item():.4f} recon {recon_loss.item():.4f} "
          f"grad norm {forecast_norm:.4f} -> {total_norm:.4f}")
checksum = sum(p.sum().item() for p in model.parameters())
print(f"checksum {checksum:.6f}")
