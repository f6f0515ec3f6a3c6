"""Scale and SumCov of the WL models' scaling evaluations beside the symbolic, LAMA and GNN ones.

Reads experiments/results/wl/scaling/*/scaling.json and, where they exist, the rule-policy,
LAMA and GNN evaluations of the same domains; writes experiments/results/wl/scaling.{csv,md}.
"""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
DOMAINS = ("blocksworld", "gripper", "logistics", "visitall")


def _row(domain: str, label: str, folder: Path) -> tuple[str, ...] | None:
    path = folder / "scaling.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    sizes = data["sizes"]
    largest = sizes[-1]["size"] if sizes else 0
    runs = sum(s["runs"] for s in sizes)
    return (domain, label, str(data["scale"]), f"{data['sum_coverage']:.2f}", str(largest), str(runs),
            f"{sum(s['seconds'] for s in sizes):.0f}")


def main() -> None:
    rows = []
    for domain in DOMAINS:
        for folder in sorted((RESULTS / "wl" / "scaling").glob(f"{domain}-*")):
            if folder.is_dir():
                rows.append(_row(domain, "wl-" + folder.name.removeprefix(domain + "-"), folder))
        for suffix, label in (("rules", "rules (GENEX)"), ("lama-first", "lama-first")):
            rows.append(_row(domain, label, RESULTS / f"{domain}-{suffix}"))
        for folder in sorted((RESULTS / "gnn").glob(f"{domain}-*")):
            rows.append(_row(domain, "gnn-" + folder.name.removeprefix(domain + "-"), folder))
    rows = [r for r in rows if r is not None]
    header = ("domain", "policy", "Scale", "SumCov", "largest size run", "runs", "seconds")
    (RESULTS / "wl" / "scaling.csv").write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n")
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    (RESULTS / "wl" / "scaling.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
