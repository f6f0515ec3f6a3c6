"""The domain registry: every folder `domains/<name>/` with a `domain.pddl` is a domain.

A user adds a domain by adding a folder. `STRATPOL_DOMAINS` points at another folder of them.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType

from stratpol.errors import InputError
from stratpol.generation.size_model import SizeModel
from stratpol.planning import Domain


def domains_root() -> Path:
    """The folder holding the domain folders."""
    configured = os.environ.get("STRATPOL_DOMAINS")
    if configured:
        return Path(configured)
    # src/stratpol/domains links to the top-level domains/ folder; a wheel carries a copy
    return Path(__file__).resolve().parents[1] / "domains"


def domain_names() -> list[str]:
    root = domains_root()
    return sorted(p.name for p in root.iterdir() if (p / "domain.pddl").is_file()) if root.is_dir() else []


@dataclass(frozen=True)
class DomainFolder:
    """One domain's folder: its PDDL domain, its generator, its bundled instances."""

    name: str
    path: Path

    @property
    def domain_file(self) -> Path:
        return self.path / "domain.pddl"

    @cached_property
    def domain(self) -> Domain:
        return Domain(self.domain_file)

    def instance_files(self) -> list[Path]:
        """Bundled instances under `instances/`, in name order."""
        folder = self.path / "instances"
        return sorted(folder.glob("*.pddl")) if folder.is_dir() else []

    @cached_property
    def module(self) -> ModuleType:
        """The folder's generator.py, imported."""
        source = self.path / "generator.py"
        if not source.is_file():
            raise InputError("domain has no generator.py", self.path)
        spec = importlib.util.spec_from_file_location(f"stratpol_domains.{self.name.replace('-', '_')}", source)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if not callable(getattr(module, "generate", None)):
            raise InputError("generator.py defines no generate() function", source)
        if not isinstance(getattr(module, "SIZE_MODEL", None), SizeModel):
            raise InputError("generator.py defines no SIZE_MODEL = SizeModel(...)", source)
        return module

    @property
    def generator(self) -> Callable[..., str]:
        """generate(**arguments, seed=...) -> PDDL text of one instance."""
        return self.module.generate

    @property
    def size_model(self) -> SizeModel:
        return self.module.SIZE_MODEL


def domain_folder(name: str) -> DomainFolder:
    """The folder of domain `name`; the same object every time, so its parsed domain is shared."""
    path = domains_root() / name
    if not (path / "domain.pddl").is_file():
        known = ", ".join(domain_names()) or "none"
        raise InputError(f"unknown domain {name!r} (known: {known})")
    return _folder(name, path)


def names_a_domain_file(domain: str | Path | Domain) -> bool:
    """Whether `domain` is a parsed domain or the path of a PDDL file rather than a registry name."""
    return isinstance(domain, Domain) or str(domain).endswith(".pddl") or Path(str(domain)).is_file()


def find_domain(domain: str | Path | Domain) -> Domain:
    """A domain by registry name, by the path of its PDDL file, or as it is."""
    if isinstance(domain, Domain):
        return domain
    return Domain(str(domain)) if names_a_domain_file(domain) else domain_folder(str(domain)).domain


@functools.lru_cache(maxsize=None)
def _folder(name: str, path: Path) -> DomainFolder:
    return DomainFolder(name, path)
