"""Federated training of a readmission-risk classifier across three hospitals with FedProx:
each round every hospital starts from the global model, trains a few local steps with a
proximal term towards the current global weights, and the server averages the client
models (weighted by sample counts) into the next global model."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from fedavg import average_weights, client_copy, client_drift, evaluate, proximal_term

N_FEATURES, ROUNDS, LOCAL_STEPS, BATCH, MU = 10, 3, 3, 16, 0.1


def hospital_data(n, shift):
    x = torch.randn(n, N_FEATURES) + shift
    logit = x[:, 0] - 0.5 * x[:, 1] + 0.3 * x[:, 2] * x[:, 3]
    return x, (logit + 0.3 * torch.randn(n) > 0).float()


def main():
    torch.manual_seed(0)
    hospitals = [hospital_data(n, s) for n, s in [(64, 0.0), (48, 0.3), (80, -0.2)]]
    global_model = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.ReLU(), nn.Linear(16, 1))
    global_weights = {name: p.detach().clone() for name, p in global_model.named_parameters()}

    for rnd in range(ROUNDS):
        clients, sizes = [], []
        for h, (x, y) in enumerate(hospitals):
            local = client_copy(global_model)
            optimizer = torch.optim.SGD(local.parameters(), lr=0.1)
            for step in range(LOCAL_STEPS):
                idx = torch.randint(0, len(y), (BATCH,))
                bce = F.binary_cross_entropy_with_logits(local(x[idx]).squeeze(1), y[idx])
                loss = bce + proximal_term(local, global_weights, MU)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            drift = client_drift(local, global_weights)
            print(f"round {rnd} hospital {h} local bce {bce.item():.4f} drift {drift:.4f}")
            clients.append(local)
            sizes.append(len(y))
        global_weights = average_weights(clients, sizes)
        global_model.load_state_dict(global_weights)

    acc = evaluate(global_model, hospitals)
    print("global accuracy per hospital: " + " ".join(f"{a:.3f}" for a in acc))


if __name__ == "__main__":
    main()
