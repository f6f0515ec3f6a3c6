"""Default training sets: small instances drawn from a domain's generator."""

from __future__ import annotations

from stratpol.errors import InputError
from stratpol.generation.registry import DomainFolder
from stratpol.generation.sampling import sample_instances
from stratpol.generation.size_csp import size_exists, smallest_size


def default_training_texts(folder: DomainFolder, seed: int = 0, sizes: int = 6, per_size: int = 2) -> list[str]:
    """Up to `per_size` distinct instances of each of the `sizes` smallest sizes (fewer where
    fewer exist), so that `stratpol learn DOMAIN` works on a fresh machine in seconds."""
    start = smallest_size(folder.size_model)
    if start is None:
        raise InputError(f"domain {folder.name} has no instance of any size up to 1000")
    chosen = [n for n in range(start, start + 100) if size_exists(folder.size_model, n)][:sizes]
    texts = []
    for n in chosen:
        for count in range(per_size, 0, -1):
            try:
                texts += [g.text for g in sample_instances(folder, n, count=count, seed=seed)]
                break
            except InputError:  # fewer distinct instances of this size
                continue
    return texts
