"""Mean teacher whose EMA update was written without torch.no_grad(): the teacher's
parameters pick up the student's graph through copy_()."""
import torch, torch.nn as nn
import copy
torch.manual_seed(0)
student = nn.Linear(6, 3)
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
for step in range(4):
    x = torch.randn(8, 6)
    loss = (student(x) - teacher(x)).pow(2).mean() + student(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    for pt, ps in zip(teacher.parameters(), student.parameters()):
        pt.copy_(0.9 * pt + 0.1 * ps)
