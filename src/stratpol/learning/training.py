"""Training sets: problem files given by the user, or small instances drawn from a domain's generator."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

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


def problem_files(paths: Sequence[str | Path]) -> list[Path]:
    """The PDDL problem files among `paths`: files as given, folders searched (domain.pddl left out)."""
    files: list[Path] = []
    for given in map(Path, paths):
        if given.is_file():
            files.append(given)
            continue
        found = [f for f in sorted(given.rglob("*.pddl")) if f.name != "domain.pddl"] if given.is_dir() else []
        if not found:
            raise InputError("no PDDL problem files here" if given.is_dir() else "no such file or folder", given)
        files += found
    return files


def domain_file_near(paths: Sequence[str | Path]) -> Path | None:
    """The domain.pddl the problems in `paths` were written for: in the folder of the first, or up to
    two folders above it (the layout of the IPC and gp2024 sets); None when there is none."""
    first = Path(paths[0]).resolve()
    folder = first if first.is_dir() else first.parent
    for candidate in (folder, *list(folder.parents)[:2]):
        if (candidate / "domain.pddl").is_file():
            return candidate / "domain.pddl"
    return None
