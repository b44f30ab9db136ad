"""Road-graph helpers: a ring road with a few cross streets, and message aggregation."""
import torch


def build_road_graph(n_junctions, n_cross=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    src = list(range(n_junctions))
    dst = [(i + 1) % n_junctions for i in range(n_junctions)]
    for _ in range(n_cross):
        a, b = torch.randint(0, n_junctions, (2,), generator=g).tolist()
        if a != b:
            src.append(a)
            dst.append(b)
    edge_index = torch.tensor([src + dst, dst + src])
    n_edges = edge_index.shape[1]
    # static road attributes: length (km), lanes, speed limit (/100 km/h)
    attrs = torch.stack([torch.rand(n_edges, generator=g) * 2 + 0.2,
                         torch.randint(1, 4, (n_edges,), generator=g).float(),
                         torch.randint(3, 9, (n_edges,), generator=g).float() / 10], dim=1)
    return edge_index, attrs


def aggregate(messages, dst, n_nodes):
    out = torch.zeros(n_nodes, messages.shape[1])
    out = out.index_add(0, dst, messages)
    deg = torch.zeros(n_nodes).index_add(0, dst, torch.ones_like(dst, dtype=torch.float))
    return out / deg.clamp(min=1).unsqueeze(1)
