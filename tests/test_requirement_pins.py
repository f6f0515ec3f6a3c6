"""The pins behind `make` and the README's pip line (`pip install --no-deps -r requirements/core.txt .`).

A plain `pip install .` cannot work on Python 3.11: dlplan 0.3.29 requires state_space_generator==0.1.9,
which has wheels only for CPython 3.8-3.10, so pip builds Scorpion from source. stratpol therefore installs
with --no-deps from requirements/*.txt. These tests keep those files in step with pyproject.toml and
check that they are complete: every dependency that a pinned package declares is pinned too, or is one
of the few that are left out on purpose.
"""

import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements"

# Declared by pinned packages, not installed (see the comments in requirements/core.txt and neural.txt).
LEFT_OUT = {
    "state-space-generator",  # dlplan: a C++ build of Scorpion with no Python 3.11 wheel
    "cmake",  # dlplan and pymimir
    "fast-downward-translate",  # up-fast-downward's Python wrapper; stratpol runs FD's own driver
    "setuptools",  # torch, for building C++ extensions
}


def pins(*groups: str) -> dict[str, str]:
    """Canonical name -> version of requirements/GROUP.txt for each group, one `name==version` a line."""
    pinned: dict[str, str] = {}
    for group in groups:
        for line in (REQUIREMENTS / f"{group}.txt").read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            requirement = Requirement(line)
            specifiers = list(requirement.specifier)
            assert len(specifiers) == 1 and specifiers[0].operator == "==", f"{group}.txt: {line} is no exact pin"
            name = canonicalize_name(requirement.name)
            version = specifiers[0].version
            assert pinned.setdefault(name, version) == version, f"{name} pinned twice with different versions"
    return pinned


def test_requirement_files_pin_exact_versions():
    pins("core", "neural", "test", "cluster")


def test_pyproject_pins_are_the_requirement_files_pins():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = {"core": project["dependencies"], **project["optional-dependencies"]}
    for group, requirements in groups.items():
        pinned = pins(group)
        for text in requirements:
            requirement = Requirement(text)
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"{name} (pyproject.toml) is missing from requirements/{group}.txt"
            assert str(requirement.specifier) == f"=={pinned[name]}", f"{name}: pyproject.toml and {group}.txt differ"


@pytest.mark.parametrize("groups", [("core",), ("core", "neural"), ("core", "neural", "test", "cluster")])
def test_requirement_files_are_complete(groups):
    """What one `pip install --no-deps -r ...` of these groups installs needs nothing else (but LEFT_OUT)."""
    pinned = pins(*groups)
    installed = {}
    for name, version in pinned.items():
        try:
            installed[name] = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            pytest.skip(f"{name} is not installed: this environment was not made from requirements/*.txt")
        if installed[name].version.split("+")[0] != version:
            pytest.skip(f"{name} {installed[name].version} is installed, not the pinned {version}")
    missing = set()
    for name, distribution in installed.items():
        for text in distribution.requires or []:
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            dependency = canonicalize_name(requirement.name)
            if dependency not in pinned and dependency not in LEFT_OUT:
                missing.add(f"{dependency} (required by {name})")
    assert not missing, f"not pinned in requirements/{{{','.join(groups)}}}.txt: {sorted(missing)}"
