"""Description-logic grammars as data: `feature_grammars/<name>.toml`."""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from stratpol.errors import InputError

# the constructor switches of dlplan 0.3.29's generate_features, without their "generate_" prefix
CONSTRUCTORS = (
    "empty_boolean", "inclusion_boolean", "nullary_boolean",
    "all_concept", "and_concept", "bot_concept", "diff_concept", "equal_concept", "not_concept",
    "one_of_concept", "or_concept", "primitive_concept", "projection_concept", "some_concept",
    "subset_concept", "top_concept",
    "concept_distance_numerical", "count_numerical",
    "and_role", "compose_role", "diff_role", "identity_role", "inverse_role", "not_role", "or_role",
    "primitive_role", "restrict_role", "til_c_role", "top_role", "transitive_closure_role",
    "transitive_reflexive_closure_role",
)


def grammars_root() -> Path:
    # src/stratpol/feature_grammars links to the top-level folder; a wheel carries a copy
    return Path(__file__).resolve().parents[1] / "feature_grammars"


@dataclass(frozen=True)
class DistanceBounds:
    """A grammar's `[distances]` table: concept distances between generated concepts along generated
    roles (features/distances.py), beyond the distances dlplan's generator makes."""

    concept_complexity: int = 7  # the concepts at either end, up to this complexity
    role_complexity: int = 3  # the roles walked along
    complexity: int = 15  # the distance feature's own bound
    candidates: int = 20_000  # distances evaluated at most, cheapest first


@dataclass(frozen=True)
class Grammar:
    """Limits and constructor switches for one feature-pool generation."""

    name: str
    complexity_limit: int = 15
    max_depth: int | None = 5
    feature_limit: int = 1_000_000
    time_limit: int = 14_400  # seconds; a pool cut by it is reported as truncated
    constructors: dict[str, bool] = field(default_factory=dict)
    # generate from the binary projections of predicates of arity 3 or more too (Vocabulary)
    projections: bool = False
    # dlplan expressions added to the generated pool as they are, whatever their complexity and
    # depth: features of more variables than the generator reaches within its limits
    features: tuple[str, ...] = ()
    distances: DistanceBounds | None = None  # generated concept distances, off where None
    path: Path | None = field(default=None, compare=False)

    def generator_arguments(self) -> dict[str, object]:
        """Keyword arguments of dlplan's generate_features after the states."""
        limit = self.complexity_limit
        arguments: dict[str, object] = {
            "concept_complexity_limit": limit, "role_complexity_limit": limit,
            "boolean_complexity_limit": limit, "count_numerical_complexity_limit": limit,
            "distance_numerical_complexity_limit": limit,
            "time_limit": self.time_limit, "feature_limit": self.feature_limit,
        }
        arguments.update({f"generate_{name}": on for name, on in self.constructors.items()})
        return arguments


_KEYS = {"extends", "complexity_limit", "max_depth", "feature_limit", "time_limit", "constructors", "projections",
         "features", "distances"}


def load_grammar(name_or_path: str | Path, _seen: tuple[Path, ...] = ()) -> Grammar:
    """A grammar by name (`feature_grammars/<name>.toml`) or by path; overrides on top of defaults,
    or on top of the grammar named by its `extends` key."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = grammars_root() / f"{name_or_path}.toml"
    if not path.is_file():
        raise InputError("feature grammar not found", path)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", path) from None
    unknown = set(data) - _KEYS
    if unknown:
        raise InputError(f"unknown keys {sorted(unknown)} (known: {sorted(_KEYS)})", path)
    base = Grammar(name=path.stem)
    if "extends" in data:
        if not isinstance(data["extends"], str):
            raise InputError("extends must name a grammar", path)
        if path.resolve() in _seen:
            raise InputError(f"grammar extends itself through {data['extends']!r}", path)
        parent = Path(data["extends"])
        parent = parent if parent.suffix == ".toml" else path.parent / f"{data['extends']}.toml"
        base = load_grammar(parent, (*_seen, path.resolve()))
    constructors = {**base.constructors, **data.get("constructors", {})}
    wrong = set(constructors) - set(CONSTRUCTORS)
    if wrong:
        raise InputError(f"unknown constructors {sorted(wrong)} (known: {', '.join(CONSTRUCTORS)})", path)
    if not all(isinstance(v, bool) for v in constructors.values()):
        raise InputError("constructor switches must be true or false", path)
    if not isinstance(data.get("projections", False), bool):
        raise InputError("projections must be true or false", path)
    listed = data.get("features", [])
    if not isinstance(listed, list) or not all(isinstance(e, str) and e.startswith(("b_", "n_")) for e in listed):
        raise InputError("features must be a list of dlplan Boolean (b_...) and numerical (n_...) expressions", path)
    fields = {k: data[k] for k in ("complexity_limit", "max_depth", "feature_limit", "time_limit", "projections")
              if k in data}
    if fields.get("max_depth") is False:  # TOML has no null: `max_depth = false` means no depth bound
        fields["max_depth"] = None
    for key, value in fields.items():
        if key == "projections" or (key == "max_depth" and value is None):
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError(f"{key} must be a non-negative integer, not {value!r}", path)
    features = tuple(dict.fromkeys((*base.features, *listed)))  # a grammar extended keeps its parent's
    if "distances" in data:
        fields["distances"] = _distance_bounds(data["distances"], path)
    return dataclasses.replace(base, name=path.stem, constructors=constructors, features=features, path=path,
                               **fields)


def _distance_bounds(table: object, path: Path) -> DistanceBounds:
    known = [f.name for f in dataclasses.fields(DistanceBounds)]
    if not isinstance(table, dict) or set(table) - set(known):
        raise InputError(f"distances must be a table of {', '.join(known)}", path)
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"distances.{key} must be a positive integer, not {value!r}", path)
    return DistanceBounds(**table)
