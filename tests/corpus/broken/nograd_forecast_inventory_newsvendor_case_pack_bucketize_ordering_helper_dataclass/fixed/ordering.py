"""Turns a demand forecast into a purchase order the supplier accepts."""
from dataclasses import dataclass

import torch


@dataclass
class SupplierTerms:
    pack_sizes: tuple = (0.0, 6.0, 12.0, 24.0, 48.0)  # units per order, case packs only
    unit_cost: float = 4.0
    price: float = 9.0
    salvage: float = 1.0

    def packs(self):
        return torch.tensor(self.pack_sizes)


def round_to_pack(qty, terms: SupplierTerms):
    """Smallest case pack that covers the wanted quantity (capped at the largest).

    bucketize returns indices, which carry no gradient: the pack is applied
    straight-through, so the cost is that of the shipped pack while the gradient
    flows to the unrounded quantity."""
    packs = terms.packs()
    slot = torch.bucketize(qty.detach(), packs).clamp(max=len(packs) - 1)
    order_units = qty + (packs[slot] - qty).detach()
    return order_units


def newsvendor_cost(order_units, demand, terms: SupplierTerms):
    """Lost margin on unmet demand plus loss on leftover stock, per store-day."""
    sold = torch.minimum(order_units, demand)
    leftover = order_units - sold
    shortfall = demand - sold
    under = (terms.price - terms.unit_cost) * shortfall
    over = (terms.unit_cost - terms.salvage) * leftover
    return (under + over).mean()
