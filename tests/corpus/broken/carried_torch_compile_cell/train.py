"""A recurrent cell compiled with torch.compile (aot_eager backend, so no C++ compiler is
needed); its hidden state is carried across steps."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Cell(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp, self.rec = nn.Linear(4, 8), nn.Linear(8, 8)

    def forward(self, x, h):
        return torch.tanh(self.inp(x) + self.rec(h))


cell = torch.compile(Cell(), backend="aot_eager")
head = nn.Linear(8, 1)
opt = torch.optim.SGD([*cell.parameters(), *head.parameters()], lr=0.1)
h = torch.zeros(2, 8)
for step in range(4):
    h = cell(torch.randn(2, 4), h)
    loss = head(h).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
