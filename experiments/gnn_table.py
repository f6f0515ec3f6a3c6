"""Scale and SumCov of the R-GNN policies (experiments/train_gnns.sh) beside the Q-value paper's
Table 3 (R-GNN) and the rule policy and LAMA-first of the same domain, the latter two cut to the
sizes the GNN evaluation covered so that their SumCov compares. Writes results/gnn/table.{csv,md}.
"""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
VALUES = ("v", "q", "q-exp", "q-heu")
PAPER = {  # Table 3 of the Q-value paper, R-GNN: Scale / SCov for V, Q, Q+Omega_exp, Q+Omega_heu (up to size 100)
    "blocksworld": ("52 / 44.5", "5 / 1.6", "54 / 47.8", "55 / 48.2"),
    "ferry": ("100 / 84.5", "30 / 12.9", "100 / 85.2", "100 / 84.5"),
    "gripper": ("100 / 77.5", "36 / 15.2", "100 / 88.8", "100 / 88.9"),
    "logistics": ("47 / 24.9", "50 / 25.9", "100 / 82.4", "100 / 84.3"),
}


def _scaling(folder: Path) -> dict | None:
    path = folder / "scaling.json"
    return json.loads(path.read_text()) if path.is_file() else None


def _cut(data: dict, largest: int) -> str:
    """Scale and SumCov over the sizes up to `largest` (the scale is the last size at or above tau)."""
    sizes = [s for s in data["sizes"] if s["size"] <= largest]
    covered = [s["size"] for s in sizes if s["coverage"] >= 0.3]
    return f"{max(covered, default=0)} / {sum(s['coverage'] for s in sizes):.1f}"


def main() -> None:
    header = ("domain", "policy", "sizes evaluated", "runs", "Scale / SumCov", "paper (to 100)", "train examples/s",
              "best epoch")
    rows = []
    evaluated = [p.name for p in (RESULTS / "gnn").iterdir() if (p / "scaling.json").is_file()]
    for domain in sorted({name.removesuffix(f"-{v}") for name in evaluated for v in VALUES if name.endswith(f"-{v}")}):
        largest = 0
        for number, value in enumerate(VALUES):
            data = _scaling(RESULTS / "gnn" / f"{domain}-{value}")
            if data is None:
                continue
            training = json.loads((RESULTS / "gnn" / "models" / f"{domain}-{value}" / "training.json").read_text())
            sizes = data["sizes"]
            largest = max(largest, sizes[-1]["size"] if sizes else 0)
            rows.append((domain, f"gnn-{value}", f"{sizes[0]['size']}..{sizes[-1]['size']}" if sizes else "-",
                         str(sum(s["runs"] for s in sizes)), f"{data['scale']} / {data['sum_coverage']:.1f}",
                         PAPER.get(domain, ("-",) * 4)[number], f"{training['examples_per_second']:.0f}",
                         str(training["best_epoch"])))
        for label, folder in (("rules", RESULTS / f"{domain}-rules"), ("lama-first", RESULTS / f"{domain}-lama-first")):
            data = _scaling(folder)
            if data is not None and largest:
                rows.append((domain, label, f"cut to {largest}", "-", _cut(data, largest),
                             "-", "-", "-"))
    (RESULTS / "gnn" / "table.csv").write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n")
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    (RESULTS / "gnn" / "table.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
