"""`stratpol bench`: planner speeds, the GENEX paper's sets, run speed, V against Q, and the IPC 2023 track."""

from __future__ import annotations

import argparse
from stratpol.cli import options
from stratpol.cli.output import printed_rows
from stratpol.errors import InputError
from stratpol.processes.limits import TIME_LIMIT_CLOCKS
from stratpol.progress import Progress

# `bench ipc2023`: the policies learned end to end (the headline), and the hand-assisted ones beside them
LEARNED = "experiments/results/policies/ipc2023-learned"
LEARNED_RECORDS = "experiments/results/ipc2023-learned"
HAND_ASSISTED_POLICIES = "experiments/results/policies/ipc2023"
HAND_ASSISTED_RECORDS = "experiments/results/ipc2023"
YARDSTICK_RECORDS = "experiments/results/yardstick"


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_bench(commands)


def _add_bench(commands: argparse._SubParsersAction) -> None:
    bench = commands.add_parser("bench", help="measure speeds, and learned policies on the published sets")
    bench.add_argument("suite", choices=["planning", "learning", "testing", "execution", "neural", "ipc2023",
                                         "yardstick"],
                       help="planner speeds, learning on the KR 2025 sets (Table 1), saved policies on their "
                            "test sets (Table 3), learned policies' run speed, V against Q time per decision, "
                            "rule policies and LAMA-first on the IPC 2023 learning track's test problems, or "
                            "whether the learner finds the features grammars list by hand (synthesis)")
    bench.add_argument("--time-limit", type=options.seconds, metavar="S",
                       help="per planner run, or per test run of a learned policy (default: 60; ipc2023: "
                            "the competition's 1,800)")
    bench.add_argument("--planner-time-limit", type=options.seconds, metavar="S",
                       help="ipc2023: LAMA-first's per-problem limit where it is to be shorter than --time-limit "
                            "(the table names both)")
    bench.add_argument("--clock", choices=TIME_LIMIT_CLOCKS, default="wall",
                       help="ipc2023: what the time limits count: wall-clock seconds (default, the "
                            "competition's) or the CPU seconds of a problem's run and the planner it starts, "
                            "which other work on the machine does not eat into (its own table)")
    bench.add_argument("--memory-limit", type=options.positive_int, default=8192, metavar="MB",
                       help="ipc2023: address space of the process running one problem (default: the "
                            "competition's 8,192)")
    bench.add_argument("--levels", nargs="+", choices=["easy", "medium", "hard"], default=["easy", "medium", "hard"],
                       help="ipc2023: which test levels (default: all three)")
    bench.add_argument("--methods", nargs="+", metavar="METHOD", type=_ipc_method,
                       default=["rules", "sketch", "lama-first"],
                       help="ipc2023: the rule policy alone, followed as a sketch (IW(k), k <= 2, where no "
                            "successor is compatible), LAMA-first (default: these three), and the neural "
                            "methods an experiment grid trained (gnn-v, gnn-q-heu, wl-xgb-delta, ...; with --grid)")
    bench.add_argument("--grid", metavar="CONFIG",
                       help="ipc2023: the experiment config whose trained models the neural methods run (its "
                            "first seed; a domain whose cell has not finished training is left out, and a finished cell's model "
                            "that is not here, as on a fresh checkout, is trained again first)")
    bench.add_argument("--report", action="store_true",
                       help="ipc2023: run nothing; the table and its files from the records there are (runs not "
                            "recorded show as not run)")
    bench.add_argument("--out", metavar="DIR",
                       help=f"ipc2023: records.jsonl (resumed from), plans/, coverage.csv/.json/.png, and where "
                            f"the policies have learning records learned.md (default: {LEARNED_RECORDS}); "
                            f"yardstick: yardstick.md and .json (default: {YARDSTICK_RECORDS})")
    bench.add_argument("--files", type=options.positive_int, default=10, metavar="N",
                       help="yardstick: the first N training files of each domain (default: 10)")
    bench.add_argument("--sizes", type=options.positive_int, nargs="+", default=[50, 200, 1000], metavar="N",
                       help="execution: generated instances of about these numbers of objects (default: 50 200 1000)")
    bench.add_argument("--benchmarks", metavar="DIR",
                       help="learning, testing, execution and ipc2023: folder of <domain>/{domain.pddl,training,"
                            "testing} (default: ../shared/benchmarks/gp2024; ipc2023: ../shared/benchmarks/ipc2023); yardstick: "
                            "the folder of both (default: ../shared/benchmarks)")
    bench.add_argument("--domains", nargs="*", metavar="NAME",
                       help="learning, testing and execution: which domains (default: the 20 of the paper's "
                            "Table 1 / every saved policy); neural: default blocksworld gripper logistics; "
                            "ipc2023: default all ten; yardstick: which listing grammars (default: all seven)")
    bench.add_argument("--max-size", type=options.positive_int, default=50, metavar="N",
                       help="neural: sizes 10, 20, ... up to N (default: 50)")
    bench.add_argument("--device", default="auto", help="neural: auto, cpu or cuda (default: auto)")
    bench.add_argument("--threads", type=options.positive_int, default=1, metavar="T", help="neural: torch CPU threads (default: 1)")
    bench.add_argument("--learn-time-limit", type=options.seconds, metavar="S",
                       help="learning and yardstick: seconds per domain, feature pool included (default: none)")
    bench.add_argument("--jobs", type=options.positive_int, default=1, metavar="J",
                       help="learning: domains learned in parallel processes; ipc2023: problems run at once, "
                            "each in a process of its own (default: 1)")
    bench.add_argument("--policies", metavar="DIR",
                       help="learning: save each learned policy as DIR/<domain>.policy (and .policy.dlplan); "
                            "testing and execution: the policies to run (default: "
                            "experiments/results/policies/gp2024); ipc2023: DIR/<domain>.policy, with its learning "
                            f"record <domain>.learned.json where it was learned end to end (default: {LEARNED}, "
                            f"those policies; the hand-assisted ones are in {HAND_ASSISTED_POLICIES}, their "
                            f"records in {HAND_ASSISTED_RECORDS}, and are the table's column beside them)")
    bench.add_argument("--retry-unsolved", action="store_true",
                       help="ipc2023: run again the problems recorded unsolved under the same setting (after a "
                            "faster release, or on a less loaded machine); the new record replaces the old")
    bench.set_defaults(run=_bench)


def _bench(args: argparse.Namespace) -> int:
    with Progress() as progress:
        return _bench_suite(args, progress)


def _bench_suite(args: argparse.Namespace, progress: Progress) -> int:
    from pathlib import Path

    if args.suite == "ipc2023":
        return _bench_ipc2023(args, progress)
    if args.suite == "yardstick":
        return _bench_yardstick(args, progress)
    time_limit = args.time_limit or 60.0
    if args.suite == "planning":
        from stratpol.bench.planning import planning_benchmark, render_planning_benchmark

        print(render_planning_benchmark(planning_benchmark(time_limit, progress)))
        return 0
    if args.suite == "neural":
        from neural.policies import set_cpu_threads
        from neural.timing import decision_times, render_decision_times

        set_cpu_threads(args.threads)
        for name in args.domains or ["blocksworld", "gripper", "logistics"]:
            rows = decision_times(name, range(10, args.max_size + 1, 10), device=args.device, progress=progress)
            print(render_decision_times(name, rows), flush=True)
        return 0
    root = Path(args.benchmarks or "../shared/benchmarks/gp2024")
    if not root.is_dir():
        raise InputError("benchmark folder not found", root)
    from stratpol.bench.paper_sets import TABLE1, render_test_benchmark, saved_policy_files, testing_benchmark

    if args.suite == "learning":
        from stratpol.bench.learning import learning_benchmark, render_learning_benchmark

        names = args.domains or TABLE1
        unknown = [n for n in names if not (root / n / "domain.pddl").is_file()]
        if unknown:
            raise InputError(f"no training set for {', '.join(unknown)}", root)
        learning_benchmark(root, names, time_limit, args.learn_time_limit, args.jobs, progress,
                           printed_rows(render_learning_benchmark),
                           policies=Path(args.policies) if args.policies else None)
        return 0
    files = saved_policy_files(Path(args.policies or "experiments/results/policies/gp2024"), root, args.domains or ())
    if args.suite == "testing":
        testing_benchmark(files, root, time_limit, progress, printed_rows(render_test_benchmark))
    else:
        from stratpol.bench.execution import execution_benchmark, render_execution_benchmark

        execution_benchmark(files, root, tuple(args.sizes), time_limit, progress,
                            printed_rows(render_execution_benchmark))
    return 0


def _bench_ipc2023(args: argparse.Namespace, progress: Progress) -> int:
    """Methods on the IPC 2023 test problems; prints the coverage table and writes its files."""
    from pathlib import Path

    from stratpol.bench.ipc2023.report import render_coverage, render_q_paper, render_unsolved
    from stratpol.bench.ipc2023.runs import Limits
    from stratpol.bench.ipc2023.track import ipc2023_track, learned_table

    limits = Limits(args.time_limit or Limits.seconds, args.memory_limit, args.planner_time_limit, args.clock)
    benchmarks, policies = Path(args.benchmarks or "../shared/benchmarks/ipc2023"), Path(args.policies or LEARNED)
    table = ipc2023_track(benchmarks, Path(args.out or LEARNED_RECORDS), policies, limits, args.domains or (),
                          args.levels, args.methods, None if args.grid is None else Path(args.grid), args.jobs,
                          run=not args.report, retry_unsolved=args.retry_unsolved, progress=progress)
    shown = (table.records, table.problems, table.methods)
    print(render_coverage(*shown, limits.describe()))
    for beside in (render_q_paper(*shown), render_unsolved(*shown)):
        if beside:
            print(beside)
    stem = limits.table_stem
    learned = learned_table(table, benchmarks, policies, Path(HAND_ASSISTED_RECORDS), Path(HAND_ASSISTED_POLICIES))
    if learned is not None:
        print("\nLearned end to end (learning records in the policies' folder), the hand-assisted policies beside")
        print(learned)
    print(f"records, plans, {stem}.csv, {stem}.json and {stem}.png{', learned.md' if learned else ''} in {table.out}")
    return 0


def _bench_yardstick(args: argparse.Namespace, progress: Progress) -> int:
    """Each listing grammar learned without its listed features; prints the table and writes it."""
    import dataclasses
    import json
    from pathlib import Path

    from stratpol.bench.yardstick import LISTING_GRAMMARS, render_yardstick, yardstick

    names = args.domains or sorted(LISTING_GRAMMARS)
    unknown = [n for n in names if n not in LISTING_GRAMMARS]
    if unknown:
        raise InputError(f"no listing grammar {', '.join(unknown)} (known: {', '.join(sorted(LISTING_GRAMMARS))})")
    benchmarks, out = Path(args.benchmarks or "../shared/benchmarks"), Path(args.out or YARDSTICK_RECORDS)
    if not benchmarks.is_dir():
        raise InputError("benchmark folder not found", benchmarks)
    rows = [yardstick(LISTING_GRAMMARS[name], benchmarks, args.files, args.learn_time_limit, progress=progress)
            for name in names]
    table = render_yardstick(rows)
    print(table)
    out.mkdir(parents=True, exist_ok=True)
    (out / "yardstick.json").write_text(json.dumps([dataclasses.asdict(r) for r in rows], indent=1) + "\n")
    (out / "yardstick.md").write_text(table + "\n")
    print(f"yardstick.md and yardstick.json in {out}")
    return 0


def _ipc_method(name: str) -> str:
    """A method `bench ipc2023` runs: its own three, or a neural method of the experiment grids."""
    from stratpol.bench.ipc2023.runs import METHODS
    from stratpol.methods import MethodKind, method

    if name in METHODS:
        return name
    entry = method(name)
    if entry is None or entry.kind not in (MethodKind.GNN, MethodKind.WL):
        raise argparse.ArgumentTypeError(f"{name!r} is not rules, sketch, lama-first or a neural method "
                                         f"(gnn-v, gnn-q-heu@fixed-loss, wl-xgb-delta, ...)")
    return name
