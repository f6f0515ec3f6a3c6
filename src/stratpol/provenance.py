"""What produced a result folder, as a content hash: a folder is resumed only by what produced it.

An evaluation or a trained model is keyed by its fingerprint: the content hash of its policy or
training data, its domain, every setting and the stratpol version. Experiment grids key their
folders by the same hash; `claim_folder` guards the folders a user names on the command line.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from stratpol import __version__
from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError

PROVENANCE = "provenance.json"


def changed_settings(settings: Any, default: Any = None) -> dict:
    """The fields of a settings dataclass that differ from `default` (its class's defaults when None):
    a field added later with a default leaves the hashes of existing results unchanged."""
    default = type(settings)() if default is None else default
    return {f.name: getattr(settings, f.name) for f in fields(settings)
            if getattr(settings, f.name) != getattr(default, f.name)}


def fingerprint(*parts: Any) -> str:
    """A short content hash of settings: artifacts and evaluations are keyed by what produced them."""
    text = json.dumps([changed_settings(p) if is_dataclass(p) else p for p in parts], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def content_hash(*parts: str | bytes) -> str:
    """A hash of several texts, kept apart so that ("ab", "c") and ("a", "bc") differ."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def path_hash(path: Path, leave_out: Collection[str] = ()) -> str:
    """The content hash of a file, or of a folder's files (names and contents; hidden files and
    files named in `leave_out` left out)."""
    if path.is_file():
        return content_hash(path.read_bytes())
    files = sorted(f for f in path.rglob("*") if f.is_file() and not f.name.startswith(".") and f.name not in leave_out)
    return content_hash(*(part for f in files for part in (f.relative_to(path).as_posix(), f.read_bytes())))


# Files beside a trained model that record how its training went (a grid's learned.json, train-gnn's
# training.json: seconds, and losses by epoch): two runs of one seeded training differ only there
TRAINING_REPORT = "training.json"  # what a training wrote of itself beside its model (train-gnn, train-wl)
TRAINING_RECORDS = ("learned.json", TRAINING_REPORT)


def model_hash(path: Path) -> str:
    """The content hash of a policy file or trained model folder, its training records left out: a
    model trained again from the same settings (seeded: the same weights) is the same policy, and
    its evaluations resume and its runs count as that policy's."""
    return path_hash(path, TRAINING_RECORDS)


@dataclass(frozen=True)
class Provenance:
    """What a result folder holds: `what` ("scaling evaluation", ...) of `source` (a content hash, or a
    planner's name) on `domain` with `settings`. Settings named in `free` may change on resume
    (the largest size, the number of parallel jobs): they do not change what was measured."""

    what: str
    source: str
    domain: str
    settings: dict
    version: str = __version__
    free: tuple[str, ...] = field(default=(), compare=False)

    @property
    def fingerprint(self) -> str:
        fixed = {key: value for key, value in self.settings.items() if key not in self.free}
        return fingerprint(self.what, self.source, self.domain, fixed, self.version)

    def to_json(self) -> dict:
        return {**asdict(self), "free": list(self.free), "fingerprint": self.fingerprint}

    @classmethod
    def from_json(cls, data: dict) -> Provenance:
        return cls(data["what"], data["source"], data["domain"], data["settings"], data["version"],
                   tuple(data.get("free", ())))

    def differences(self, other: Provenance) -> list[str]:
        """What differs from `other` (the folder's), in words: "policy 3fa2... not 91bc...", ..."""
        found = [f"{name} {mine} (the folder's: {theirs})"
                 for name, mine, theirs in (("what", self.what, other.what), ("policy", self.source, other.source),
                                            ("domain", self.domain, other.domain),
                                            ("stratpol version", self.version, other.version))
                 if mine != theirs]
        for key in sorted(set(self.settings) | set(other.settings)):
            if key not in self.free and self.settings.get(key) != other.settings.get(key):
                found.append(f"{key} {self.settings.get(key)} (the folder's: {other.settings.get(key)})")
        return found


def claim_folder(out: Path, provenance: Provenance, results: tuple[str, ...], force: bool = False) -> None:
    """Make `out` the folder of `provenance`'s work: a new or empty folder, or one that the same work
    began (it resumes). A folder holding `results` of other work is refused with one line naming
    what differs, or with `force` emptied of them so that the work starts afresh."""
    found = [out / name for name in (*results, PROVENANCE) if (out / name).exists()]
    if found:
        recorded = recorded_provenance(out)
        if recorded is None or recorded.fingerprint != provenance.fingerprint:
            if not force:
                why = "no record of what produced it" if recorded is None else \
                    "; ".join(provenance.differences(recorded)) or "another stratpol fingerprint"
                raise InputError(f"holds the results of another {provenance.what} ({why}); "
                                 "give another folder, or --force to start afresh", out)
            for path in found:
                shutil.rmtree(path) if path.is_dir() else path.unlink()
    write_text_atomically(out / PROVENANCE, json.dumps(provenance.to_json(), indent=1) + "\n")


def recorded_provenance(out: Path) -> Provenance | None:
    """What produced the results in `out`, as its provenance.json says (None: no readable record)."""
    try:
        return Provenance.from_json(json.loads((out / PROVENANCE).read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return None
