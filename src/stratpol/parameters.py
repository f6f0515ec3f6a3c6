"""Documented parameters of a settings dataclass: each field states its default, help and range once.

From the fields come the checks of a settings object, its command-line options and its reading
from a TOML table, so that a new knob is one edit.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from stratpol.errors import InputError

S = TypeVar("S")
Check = Callable[[Any], "str | None"]  # a value -> what is wrong with it, or None


def parameter(default: Any, help: str, check: Check | None = None, metavar: str | None = None,
              choices: tuple[str, ...] | None = None) -> Any:
    """A dataclass field with its help text and its range check (or the names it may take)."""
    if choices is not None:
        check = one_of(choices)
    return dataclasses.field(default=default, metadata={"help": help, "check": check, "metavar": metavar,
                                                        "choices": choices})


def one_of(choices: tuple[str, ...]) -> Check:
    def check(value: Any) -> str | None:
        return None if value in choices else f"must be one of {', '.join(choices)}, not {value!r}"
    return check


def within(low: float, high: float, low_included: bool = False, high_included: bool = False) -> Check:
    """A number between `low` and `high` (each bound included where asked); None passes."""
    shown = f"{'[' if low_included else '('}{low:g}, {high:g}{']' if high_included else ')'}"

    def check(value: Any) -> str | None:
        if value is None:
            return None
        inside = (low <= value if low_included else low < value) and (value <= high if high_included else value < high)
        return None if inside else f"must be in {shown}, not {value:g}"
    return check


def at_least(low: int) -> Check:
    def check(value: Any) -> str | None:
        return None if value is None or value >= low else f"must be at least {low}, not {value}"
    return check


def positive(value: Any) -> str | None:
    return None if value is None or value > 0 else f"must be positive, not {value:g}"


def validate(settings: object) -> None:
    """ValueError naming the first field whose value is out of its range."""
    for field in dataclasses.fields(settings):
        check = field.metadata.get("check")
        problem = check(getattr(settings, field.name)) if check else None
        if problem:
            raise ValueError(f"{field.name} {problem}")


class ParameterError(ValueError):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key, self.message = key, message


def _kind(field: dataclasses.Field) -> type:
    """int, float, bool or str from the field's annotation (`float | None` is float)."""
    annotation = str(field.type).replace(" ", "")
    for name, kind in (("bool", bool), ("int", int), ("float", float), ("str", str)):
        if annotation in (name, f"{name}|None"):
            return kind
    raise TypeError(f"parameter {field.name} has no simple type: {field.type}")


def from_mapping(default: S, data: Mapping[str, Any], exclude: Iterable[str] = ()) -> S:
    """`default` with the values in `data` (a TOML table), each checked; ParameterError names the key."""
    values = {}
    for field in dataclasses.fields(default):
        if field.name in exclude or field.name not in data:
            continue
        value, kind = data[field.name], _kind(field)
        fits = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool) or \
            kind is float and isinstance(value, int) and not isinstance(value, bool)
        if not fits:
            raise ParameterError(field.name, f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        value = float(value) if kind is float else value
        check = field.metadata.get("check")
        if check and (problem := check(value)):
            raise ParameterError(field.name, problem)
        values[field.name] = value
    return dataclasses.replace(default, **values)


def add_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, default: object,
                exclude: Iterable[str] = (), aliases: Mapping[str, str] | None = None, unset: bool = False) -> None:
    """One option per field (`max_size` -> `--max-size`, plus an alias where `aliases` names one),
    with `default`'s values as the defaults; with `unset`, an option left out is None (overriding
    nothing, as the parser's or group's description says) and its help names no default."""
    for field in dataclasses.fields(default):
        if field.name in exclude:
            continue
        kind, value = _kind(field), getattr(default, field.name)
        names = [f"--{field.name.replace('_', '-')}", *([aliases[field.name]] if aliases and field.name in aliases
                                                        else [])]
        shown = {"default": None if unset else value, "dest": field.name,
                 "help": field.metadata["help"] if unset else f"{field.metadata['help']} (default: {value})"}
        if kind is bool:
            parser.add_argument(*names, action=argparse.BooleanOptionalAction, **shown)
        elif field.metadata.get("choices"):
            parser.add_argument(*names, choices=field.metadata["choices"], **shown)
        else:
            parser.add_argument(*names, type=option_type(kind, field.metadata.get("check")),
                                metavar=field.metadata.get("metavar") or field.name.upper(), **shown)


def from_options(default: S, args: argparse.Namespace, exclude: Iterable[str] = ()) -> S:
    """`default` with the values of the options `add_options` made (an option left None changes nothing).
    Options that are each valid but not together (the settings' own check) are an InputError
    spelled with the options' names."""
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(default) if f.name not in exclude}
    try:
        return dataclasses.replace(default, **{name: value for name, value in values.items() if value is not None})
    except ValueError as error:
        raise InputError(_option_spelling(str(error), values)) from None


def _option_spelling(message: str, names: Iterable[str]) -> str:
    """`message` with the settings' field names written as their options (seconds_per_size ->
    --seconds-per-size); only names with an underscore, which cannot be ordinary words."""
    for name in names:
        if "_" in name:
            message = re.sub(rf"\b{name}\b", "--" + name.replace("_", "-"), message)
    return message


def option_type(kind: type, check: Check | None = None) -> Callable[[str], Any]:
    """An argparse type: text read as `kind`, then checked; a mistake is one line."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {'an integer' if kind is int else 'a number'}: {text!r}") from None
        if check and (problem := check(value)):
            raise argparse.ArgumentTypeError(problem)
        return value
    parse.__name__ = kind.__name__
    return parse


def size_range(text: str) -> range:
    """"N" or "A:B" as the range of sizes N..N or A..B; ValueError, one line, for anything else."""
    low, _, high = text.partition(":")
    try:
        sizes = range(int(low), int(high or low) + 1)
    except ValueError:
        raise ValueError(f"not a size or a range A:B: {text!r}") from None
    if not sizes:
        raise ValueError(f"empty size range: {text!r}")
    return sizes
