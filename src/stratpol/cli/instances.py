"""The domains and their instances: `stratpol domains` and `stratpol generate`."""

from __future__ import annotations

import argparse
import sys

from stratpol.cli import options
from stratpol.errors import InputError


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_domains(commands)
    _add_generate(commands)


def _add_domains(commands: argparse._SubParsersAction) -> None:
    domains = commands.add_parser("domains", help="list the domains with their size model and smallest size")
    domains.set_defaults(run=_domains)


def _domains(args: argparse.Namespace) -> int:
    from stratpol.generation import domain_folder, domain_names
    from stratpol.generation.size_csp import smallest_size

    rows = []
    for name in domain_names():
        model = domain_folder(name).size_model
        rows.append((name, str(smallest_size(model)), model.formula()))
    width = max(len(r[0]) for r in rows)
    print(f"{'domain':<{width}}  smallest  size model")
    for name, smallest, formula in rows:
        print(f"{name:<{width}}  {smallest:>8}  {formula}")
    return 0


def _add_generate(commands: argparse._SubParsersAction) -> None:
    generate = commands.add_parser("generate", help="write instances with exactly N objects")
    generate.add_argument("domain", help="domain name (see `stratpol domains`)")
    generate.add_argument("--size", type=options.sizes, required=True, metavar="N|A:B",
                          help="number of objects, or a range of them")
    generate.add_argument("--count", type=options.positive_int, default=1, metavar="K", help="instances per size (default: 1)")
    generate.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    generate.add_argument("--out", required=True, metavar="DIR", help="output folder")
    generate.set_defaults(run=_generate)


def _generate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stratpol.atomic import write_text_atomically
    from stratpol.generation import domain_folder
    from stratpol.generation.sampling import sample_instances
    from stratpol.generation.size_csp import size_exists

    folder = domain_folder(args.domain)
    possible = [n for n in args.size if size_exists(folder.size_model, n)]
    if not possible:
        sizes = f"size {args.size.start}" if len(args.size) == 1 else f"sizes {args.size.start}..{args.size[-1]}"
        raise InputError(f"domain {folder.name} has no instance of {sizes} ({folder.size_model.formula()})")
    skipped = [n for n in args.size if n not in possible]
    if skipped:
        print(f"stratpol: no {folder.name} instance has {', '.join(map(str, skipped))} objects; skipped",
              file=sys.stderr)
    out = Path(args.out)
    for n in possible:
        for index, generated in enumerate(sample_instances(folder, n, args.count, args.seed), start=1):
            path = out / f"{folder.name}-n{n:03d}-{index:02d}.pddl"
            write_text_atomically(path, generated.text)
            print(path)
    return 0
