"""A tiny head-to-head grid end to end: locally with joblib, on a Dask LocalCluster, and resumed."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from stratpol.cli import main
from stratpol.errors import InputError
from stratpol.experiment import load_config, run_experiment
from stratpol.experiment.cells import Cell, cell_fingerprint, earlier_evaluation, evaluation_folder
from stratpol.generation import domain_folder
from stratpol.progress import Progress
from stratpol.provenance import model_hash, path_hash

CONFIG = """
domains = ["gripper"]
methods = ["rules", "lama-first"]
seeds = [0]
[evaluation]
max_size = 6             # gripper sizes 5 and 6
max_runs_per_size = 3
ipc_benchmarks = "ipc"
ipc_instances = 1
[rules]
time_limit = 120
"""

TIMINGS = ("seconds", "learn_seconds", "decision_ms", "ipc_decision_ms")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """The config file, beside a stand-in IPC test set of two small gripper problems."""
    root = tmp_path_factory.mktemp("grid")
    easy = root / "ipc" / "gripper" / "testing" / "easy"
    easy.mkdir(parents=True)
    for number, balls in enumerate((3, 4), start=1):
        (easy / f"p0{number}.pddl").write_text(domain_folder("gripper").generator(balls=balls))
    (root / "grid.toml").write_text(CONFIG)
    return root / "grid.toml"


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STRATPOL_CACHE", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="module")
def local(tiny, cache):
    """The grid run with joblib (two worker processes)."""
    config = load_config(tiny)
    return config, run_experiment(config, jobs=2)


def _comparable(row) -> dict:
    return {k: v for k, v in asdict(row).items() if k not in TIMINGS}


def test_a_local_grid_writes_rows_tables_and_plots(local):
    config, result = local
    rows = {row.method: row for row in result.grid.rows}
    assert list(rows) == ["rules", "lama-first"] and sorted(result.grid.computed) == sorted(
        ["gripper.rules.s0", "gripper.lama-first.s0"])
    for row in rows.values():
        assert row.status == "ok"
        assert row.scale == 6 and row.sum_coverage == pytest.approx(2.0)
        assert (row.ipc_solved, row.ipc_total) == (1, 1)
        assert row.decision_ms is not None and row.decision_ms > 0
    assert rows["rules"].learn_seconds > 0 and rows["lama-first"].learn_seconds is None
    assert (config.out / rows["rules"].artifact / "policy.txt").is_file()
    for name in ("cells.csv", "summary.csv", "summary.json", "summary.md", "scaling-gripper.png", "sumcov.png"):
        assert (config.out / name).is_file(), name
    table = (config.out / "summary.md").read_text()
    assert "| gripper | rules | 6 | 2.00 |" in table and "| 1/1 |" in table
    saved = json.loads((config.out / "cells" / "gripper.rules.s0.json").read_text())
    assert saved["scale"] == 6


def test_a_dask_cluster_gives_the_same_rows(local, tiny, tmp_path):
    from distributed import Client, LocalCluster

    _, result = local
    elsewhere = load_config(tiny, out=tmp_path / "dask")
    log = io.StringIO()
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client, Progress(stream=log, interval=0) as progress:
        on_dask = run_experiment(elsewhere, cluster=client, progress=progress)
    assert [_comparable(r) for r in on_dask.grid.rows] == [_comparable(r) for r in result.grid.rows]
    assert (elsewhere.out / "summary.md").is_file()
    assert re.search(r"cells on the cluster: 2/2, \d running on 1 workers", log.getvalue())  # from the futures


def test_evaluation_jobs_on_a_cluster_need_workers_that_may_start_processes(local, tiny, tmp_path):
    # Dask's workers are daemonic processes by default, which Python forbids children: the grid says
    # so before it submits a cell, and with workers started as the error says it runs as locally
    import dask
    from distributed import Client, LocalCluster

    _, result = local
    config = replace(load_config(tiny, out=tmp_path / "dask"), evaluation_jobs=2)
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        with pytest.raises(InputError, match="1 of the cluster's 1 workers .* DASK_DISTRIBUTED__WORKER__DAEMON=False"):
            run_experiment(config, cluster=client)
    assert not (config.out / "cells").exists()
    with dask.config.set({"distributed.worker.daemon": False}), \
            LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        on_dask = run_experiment(config, cluster=client)
    assert [_comparable(r) for r in on_dask.grid.rows] == [_comparable(r) for r in result.grid.rows]


def test_a_cpu_clock_budget_on_a_cluster_needs_workers_of_one_thread(tiny, tmp_path):
    # a worker's threads share its process's CPU time: cells side by side would spend each other's budget
    from distributed import Client, LocalCluster

    config = load_config(tiny, out=tmp_path / "dask")
    config = replace(config, evaluation=replace(config.evaluation,
                                                protocol=replace(config.evaluation.protocol, budget_clock="cpu")))
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        with pytest.raises(InputError, match="1 of the cluster's 1 workers .* --nthreads 1"):
            run_experiment(config, cluster=client)
    assert not (config.out / "cells").exists()


def test_parallel_runs_within_the_cells_give_the_same_rows_and_keys(local, tiny, tmp_path, capsys):
    _, result = local
    out = tmp_path / "parallel"
    assert main(["experiment", str(tiny), "--evaluation-jobs", "2", "--out", str(out)]) == 0
    parallel = load_config(tiny, out=out)
    rows = [json.loads((out / "cells" / f"{row.domain}.{row.method}.s0.json").read_text()) for row in result.grid.rows]
    assert [{k: v for k, v in row.items() if k not in TIMINGS} for row in rows] == \
        [_comparable(r) for r in result.grid.rows]
    for row in result.grid.rows:  # the same folders: a grid resumes under another evaluation_jobs
        assert evaluation_folder(parallel, Cell(row.domain, row.method, 0)).name == Path(row.evaluation).name
        assert len((out / row.evaluation / "ipc.jsonl").read_text().splitlines()) == row.ipc_total


def test_a_rerun_reuses_finished_cells_and_artifacts(local, capsys):
    config, _ = local
    cells = sorted((config.out / "cells").glob("*.json"))
    learned = next((config.out / "artifacts").rglob("learned.json"))
    runs = next(p for p in (config.out / "evaluations").rglob("runs.jsonl") if "rules" in p.parent.name)
    before = {p: p.stat().st_mtime_ns for p in [*cells, learned, runs]}
    assert main(["experiment", str(config.path)]) == 0
    assert "2 of 2 cells finished (0 run now, 2 before)" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in before} == before

    # a cell whose row was lost (interrupted before saving) runs again, from its saved artifact and runs
    (config.out / "cells" / "gripper.rules.s0.json").unlink()
    again = run_experiment(config)
    assert again.grid.computed == ["gripper.rules.s0"] and again.grid.reused == ["gripper.lama-first.s0"]
    assert learned.stat().st_mtime_ns == before[learned]
    assert runs.stat().st_mtime_ns == before[runs]
    assert again.grid.rows[0].scale == 6


def test_domains_and_methods_run_part_of_a_grid_and_tables_keep_every_finished_cell(local, tmp_path, capsys):
    config, _ = local
    shutil.copytree(config.out, tmp_path / "out")
    part = load_config(config.path, out=tmp_path / "out")
    (part.out / "cells" / "gripper.rules.s0.json").unlink()
    (part.out / "cells" / "gripper.lama-first.s0.json").unlink()
    assert main(["experiment", str(config.path), "--out", str(part.out), "--methods", "lama-first"]) == 0
    assert "1 of 2 cells finished (1 run now, 0 before)" in capsys.readouterr().out
    assert not (part.out / "cells" / "gripper.rules.s0.json").exists()

    assert main(["experiment", str(config.path), "--out", str(part.out), "--status", "--methods", "rules"]) == 0
    cell, total = capsys.readouterr().out.splitlines()
    assert cell.split() == ["gripper.rules.s0", "evaluating", "6", "runs,", "sizes", "up", "to", "6"]
    assert total.startswith("1 evaluating (")
    result = run_experiment(part, domains=["gripper"], methods=["rules"])
    assert result.grid.computed == ["gripper.rules.s0"] and result.grid.reused == ["gripper.lama-first.s0"]
    assert [row.method for row in result.grid.rows] == ["rules", "lama-first"]
    assert "| gripper | rules | 6 |" in (part.out / "summary.md").read_text()

    capsys.readouterr()
    assert main(["experiment", str(config.path), "--report", "--domains", "gripper"]) == 2
    assert capsys.readouterr().err.strip() == ("stratpol: error: --report writes the tables of every finished cell: "
                                                "it takes no --domains or --methods")
    assert main(["experiment", str(config.path), "--methods", "rule"]) == 2
    assert capsys.readouterr().err.strip() == (f"stratpol: error: {config.path}: no methods rule in the config "
                                                "(its methods: rules, lama-first)")


def test_the_tables_hold_the_cells_another_process_finished_meanwhile(local, tmp_path):
    config, _ = local
    shutil.copytree(config.out, tmp_path / "out")
    part = load_config(config.path, out=tmp_path / "out")
    rules, lama = (part.out / "cells" / f"gripper.{m}.s0.json" for m in ("rules", "lama-first"))
    saved = lama.read_text()
    rules.unlink()
    lama.unlink()

    def finished_elsewhere(line: str) -> None:  # lama-first's row lands while this process runs rules
        if not lama.exists():
            lama.write_text(saved)

    result = run_experiment(part, methods=["rules"], progress=finished_elsewhere)
    assert result.grid.computed == ["gripper.rules.s0"] and result.grid.reused == []
    table = (part.out / "summary.md").read_text()
    assert "| gripper | rules | 6 |" in table and "| gripper | lama-first | 6 |" in table


def test_changed_evaluation_settings_do_not_reuse_old_rows(local, tmp_path):
    config, _ = local
    (config.path.parent / "changed.toml").write_text(config.path.read_text().replace("max_size = 6 ", "max_size = 5 "))
    changed = load_config(config.path.parent / "changed.toml", out=config.out)
    from stratpol.experiment.grid import cells, finished_row

    assert [finished_row(changed, cell) for cell in cells(changed)] == [None, None]
    assert all(finished_row(config, cell) is not None for cell in cells(config))


def test_a_changed_stop_rule_reruns_the_cells_from_their_earlier_runs(local, tmp_path):
    config, _ = local
    shutil.copytree(config.out, tmp_path / "out")
    path = config.path.parent / "more-runs.toml"
    path.write_text(config.path.read_text().replace("max_runs_per_size = 3", "max_runs_per_size = 5"))
    more = load_config(path, out=tmp_path / "out")
    cell = Cell("gripper", "rules", 0)
    source = model_hash(next((config.out / "artifacts" / "gripper").glob("rules-s0-*")))
    earlier = earlier_evaluation(more, cell, source)
    assert earlier_evaluation(more, cell, "another policy") is None
    assert earlier is not None and earlier.name == evaluation_folder(config, cell).name
    result = run_experiment(more)
    assert sorted(result.grid.computed) == ["gripper.lama-first.s0", "gripper.rules.s0"]
    out = evaluation_folder(more, cell)
    runs = (out / "runs.jsonl").read_text().splitlines()
    assert runs[:6] == (earlier / "runs.jsonl").read_text().splitlines() and len(runs) == 10
    assert (out / "ipc.jsonl").read_text() == (earlier / "ipc.jsonl").read_text()  # not run again
    # --prune removes the folders the finished cells replaced, and only those
    with pytest.raises(SystemExit) as usage:  # one of them: argparse's one line and exit code 2
        main(["experiment", str(path), "--out", str(tmp_path / "out"), "--prune", "--report"])
    assert usage.value.code == 2
    lama = Cell("gripper", "lama-first", 0)
    before = {f.name for f in (tmp_path / "out" / "evaluations").iterdir()}
    assert main(["experiment", str(path), "--out", str(tmp_path / "out"), "--prune", "--methods", "rules"]) == 0
    assert before - {f.name for f in (tmp_path / "out" / "evaluations").iterdir()} == {earlier.name}
    assert main(["experiment", str(path), "--out", str(tmp_path / "out"), "--prune"]) == 0
    assert sorted(f.name for f in (tmp_path / "out" / "evaluations").iterdir()) == sorted(
        evaluation_folder(more, c).name for c in (cell, lama))
    # a changed step bound changes every run: nothing is taken over
    path.write_text(config.path.read_text().replace("max_runs_per_size = 3", "plan_length_bound = 50"))
    assert earlier_evaluation(load_config(path, out=tmp_path / "out"), cell, source) is None


def test_on_the_cpu_clock_an_ipc_run_the_wall_clock_limit_stopped_runs_again(local, tmp_path):
    # the IPC runs' time limit counts the budget clock; a grid moved to the CPU clock takes over its
    # wall-clock runs, all but one that the wall-clock limit stopped (here: a log line made so)
    config, _ = local
    shutil.copytree(config.out, tmp_path / "out")
    cell = Cell("gripper", "rules", 0)
    wall_log = tmp_path / "out" / "evaluations" / evaluation_folder(config, cell).name / "ipc.jsonl"
    record, = [json.loads(line) for line in wall_log.read_text().splitlines()]
    assert record["solved"] and record["clock"] == "wall"
    wall_log.write_text(json.dumps({**record, "solved": False, "failure": "time limit"}) + "\n")
    path = config.path.parent / "cpu-clock.toml"
    path.write_text(config.path.read_text().replace("max_runs_per_size = 3",
                                                    'max_runs_per_size = 3\nseconds_per_size = 30\nbudget_clock = "cpu"'))
    cpu = load_config(path, out=tmp_path / "out")
    row, = run_experiment(cpu, methods=["rules"]).grid.rows
    lines = [json.loads(line) for line in (evaluation_folder(cpu, cell) / "ipc.jsonl").read_text().splitlines()]
    assert [(r["failure"], r["clock"]) for r in lines] == [("time limit", "wall"), (None, "cpu")]
    assert lines[1]["solved"] and lines[1]["cpu_seconds"] > 0 and (row.ipc_solved, row.ipc_total) == (1, 1)
    # and its times per decision are CPU time, and the row says so
    assert row.ipc_decision_ms == pytest.approx(1000 * lines[1]["cpu_seconds"] / lines[1]["steps"])
    walled = run_experiment(config, methods=["rules"]).grid.rows[0]
    assert row.decision_clock == "cpu" and walled.decision_clock == "wall"


def test_a_method_that_cannot_learn_fails_its_cell_not_the_grid(tiny, cache, tmp_path):
    path = tmp_path / "hopeless.toml"
    path.write_text(tiny.read_text().replace('methods = ["rules", "lama-first"]', 'methods = ["rules"]')
                    .replace("time_limit = 120", "time_limit = 0.001")
                    .replace('ipc_benchmarks = "ipc"', f'ipc_benchmarks = "{tiny.parent / "ipc"}"'))
    config = load_config(path)
    result = run_experiment(config)
    row, = result.grid.rows
    assert row.status.startswith("failed: ") and row.scale == 0 and row.evaluation is None
    assert not list((config.out / "artifacts").rglob("learned.json"))
    assert "| gripper | rules | 0 (failed) |" in (config.out / "summary.md").read_text()



def _running_grid(tiny: Path, tmp_path: Path, psutil):
    """`stratpol experiment --jobs 2` on a grid of long cells, in a subprocess, once its workers run."""
    path = tmp_path / "long.toml"
    path.write_text(tiny.read_text().replace('methods = ["rules", "lama-first"]', 'methods = ["lama-first"]')
                    .replace('domains = ["gripper"]', 'domains = ["gripper", "ferry"]')
                    .replace("max_size = 6 ", "max_size = 60")
                    .replace('ipc_benchmarks = "ipc"', f'ipc_benchmarks = "{tiny.parent / "ipc"}"'))
    command = [sys.executable, "-m", "stratpol.cli", "experiment", str(path), "--jobs", "2"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "STRATPOL_CACHE": str(tmp_path / "cache")})
    parent = psutil.Process(process.pid)  # the supervisor; the command runs in its child

    def workers() -> list:
        return [p for p in parent.children(recursive=True) if "loky.backend.popen" in _command_line(p, psutil)]

    deadline = time.monotonic() + 120
    while len(workers()) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)  # inside the cells
    assert len(workers()) == 2, "the grid never started its workers"
    return process, workers()


def _command_line(process, psutil) -> str:
    """A process's command line; "" for one that ended meanwhile (a planner the cells ran, say)."""
    try:
        return " ".join(process.cmdline())
    except (psutil.ZombieProcess, psutil.NoSuchProcess):
        return ""


def _last_line(errors: str) -> str:
    """The last line on stderr: stratpol's own, with nothing after it (not even the warnings of
    loky's resource tracker, a process that outlives the killed worker)."""
    return errors.splitlines()[-1]


def test_a_terminated_experiment_stops_its_workers(tiny, tmp_path):
    """`kill PID` (as a batch system's time limit sends) stops the cells' worker processes too."""
    psutil = pytest.importorskip("psutil")
    process, workers = _running_grid(tiny, tmp_path, psutil)
    process.terminate()
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 130, errors
    assert _last_line(errors) == "stratpol: interrupted"
    _, alive = psutil.wait_procs(workers, timeout=30)
    assert not [w for w in alive if w.status() != psutil.STATUS_ZOMBIE]


def test_a_killed_worker_ends_the_experiment_with_one_line(tiny, tmp_path):
    psutil = pytest.importorskip("psutil")
    process, workers = _running_grid(tiny, tmp_path, psutil)
    workers[0].kill()
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 1, errors
    assert _last_line(errors).startswith("stratpol: error: a worker process died (")
    assert _last_line(errors).endswith("run the same command to resume")
    psutil.wait_procs(workers, timeout=30)


def test_status_tells_each_cells_stage_without_running_it(local, tmp_path, capsys):
    import shutil

    config, _ = local
    out = tmp_path / "copy"
    shutil.copytree(config.out, out)

    def status() -> list[list[str]]:
        assert main(["experiment", str(config.path), "--out", str(out), "--status"]) == 0
        *cells, total = capsys.readouterr().out.splitlines()
        assert total.endswith(f"(results in {out})")
        return [re.split(r"\s{2,}", line)[:2] for line in cells]

    assert status()[:2] == [["gripper.rules.s0", "finished"], ["gripper.lama-first.s0", "finished"]]
    (out / "cells" / "gripper.rules.s0.json").unlink()  # stopped before its row was saved
    assert status()[0] == ["gripper.rules.s0", "evaluating"]
    for folder in (out / "evaluations").glob("gripper.rules.*"):
        shutil.rmtree(folder)
    assert status()[0] == ["gripper.rules.s0", "trained"]
    next((out / "artifacts").rglob("learned.json")).unlink()
    assert status()[0] == ["gripper.rules.s0", "training"]
    shutil.rmtree(out / "artifacts")
    assert status() == [["gripper.rules.s0", "to run"], ["gripper.lama-first.s0", "finished"]]
    assert not (out / "artifacts").exists()
    # --report writes the tables and plots of the finished cells and runs nothing either
    (out / "summary.md").unlink()
    assert main(["experiment", str(config.path), "--out", str(out), "--report"]) == 0
    printed = capsys.readouterr().out
    assert "| gripper | lama-first | 6 |" in printed and "| gripper | rules |" not in printed
    assert printed.splitlines()[-1].startswith("1 of 2 cells finished")
    assert (out / "summary.md").is_file() and (out / "scaling-gripper.png").is_file()
    assert (out / "summary.md").read_text().endswith("\nCells not finished (1):\n\n- gripper.rules.s0: to run\n")
    assert not (out / "artifacts").exists()


def test_a_grid_evaluates_saved_policies_and_keys_them_by_content(tmp_path, cache):
    policies = tmp_path / "policies"
    policies.mkdir()
    golden = Path(__file__).resolve().parents[1] / "data" / "golden" / "gripper.policy"
    (policies / "gripper-golden.policy").write_text(golden.read_text())  # found as the one gripper-*.policy
    config_file = tmp_path / "saved.toml"
    config_file.write_text('domains = ["gripper"]\nmethods = ["rules"]\n[evaluation]\nmax_size = 6\n'
                           'max_runs_per_size = 3\n[rules]\npolicies = "policies"\n')
    config = load_config(config_file)
    (row,) = run_experiment(config).grid.rows
    assert row.status == "ok" and row.scale == 6
    assert (config.out / row.artifact / "policy.txt").read_text() == golden.read_text()
    (policies / "gripper-golden.policy").write_text(golden.read_text().replace("{m > 0} -> {m down}\n", ""))
    assert cell_fingerprint(load_config(config_file), Cell("gripper", "rules", 0)) != row.fingerprint


def test_a_two_domain_grid_of_saved_policies_and_one_gnn_training_read_by_two_methods(tmp_path, cache):
    # the shape of experiments/seeds.toml and validation.toml at toy budgets: rule policies from the
    # first of several folders that has one, and gnn-v@fixed-coverage reading gnn-v's training run
    policies = Path(__file__).resolve().parents[2] / "experiments" / "results" / "policies"
    config_file = tmp_path / "seeds.toml"
    config_file.write_text(f"""
domains = ["gripper", "ferry"]
methods = ["rules", "gnn-v", "gnn-v@fixed-coverage", "wl-xgb-delta"]
[evaluation]
max_size = 5
max_sizes = {{ gripper = 6 }}
max_runs_per_size = 2
[rules]
policies = ["{policies / 'ipc2023'}", "{policies}"]
[gnn]
epochs = 2
layers = 1
hidden = 4
batch_size = 8
validate_every = 1
validation_instances = 1
validation_sizes = 1
fixed_validation = 1
sizes = {{ gripper = "5:6", ferry = "3:4" }}
per_size = {{ gripper = 1, ferry = 1 }}
[wl]
epochs = 5
sizes = {{ gripper = "5:6", ferry = "3:4" }}
per_size = {{ gripper = 1, ferry = 1 }}
""")
    config = load_config(config_file)
    rows = {(row.domain, row.method): row for row in run_experiment(config, jobs=2).grid.rows}
    assert all(row.status == "ok" for row in rows.values()), rows
    assert (rows["gripper", "rules"].scale, rows["ferry", "rules"].scale) == (6, 5)  # sizes 5-6 and 3-5
    assert (config.out / rows["ferry", "rules"].artifact / "policy.txt").read_text() == \
        (policies / "ipc2023" / "ferry.policy").read_text()
    for domain in ("gripper", "ferry"):  # one training, two checkpoints
        assert rows[domain, "gnn-v"].artifact == rows[domain, "gnn-v@fixed-coverage"].artifact
        assert len(list((config.out / "artifacts" / domain).glob("gnn-v-s0-*/learned.json"))) == 1
        assert rows[domain, "gnn-v"].evaluation != rows[domain, "gnn-v@fixed-coverage"].evaluation
    # the IPC 2023 bench runs the grid's trained models on test problems, plans validated
    benchmarks = tmp_path / "benchmarks"
    easy = benchmarks / "gripper" / "testing" / "easy"
    easy.mkdir(parents=True)
    (benchmarks / "gripper" / "domain.pddl").write_text(domain_folder("gripper").domain_file.read_text())
    for balls in (2, 3):
        (easy / f"p0{balls}.pddl").write_text(domain_folder("gripper").generator(balls=balls))
    out = tmp_path / "ipc"
    assert main(["bench", "ipc2023", "--benchmarks", str(benchmarks), "--domains", "gripper", "--levels", "easy",
                 "--methods", "gnn-v", "gnn-v@fixed-coverage", "wl-xgb-delta", "--grid", str(config_file),
                 "--time-limit", "60", "--out", str(out)]) == 0
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert sorted((r["method"], r["problem"]) for r in records) == [
        (method, problem) for method in ("gnn-v", "gnn-v@fixed-coverage", "wl-xgb-delta")
        for problem in ("p02.pddl", "p03.pddl")]
    assert all(r["setting"].startswith("model ") and not r["outcome"].startswith("invalid") for r in records)
    # a fresh checkout has the cells' rows but not their models (git ignores them): the bench trains
    # the judged model again, the same weights, so the same model hash (the training records' seconds
    # left out) and the runs' same setting
    import torch

    model = config.out / rows["gripper", "gnn-v"].artifact
    weights, judged = torch.load(model / "model.pt", weights_only=True), model_hash(model)
    shutil.rmtree(model)
    assert main(["bench", "ipc2023", "--benchmarks", str(benchmarks), "--domains", "gripper", "--levels", "easy",
                 "--methods", "gnn-v", "--grid", str(config_file), "--time-limit", "60",
                 "--out", str(tmp_path / "ipc-fresh")]) == 0
    again = torch.load(model / "model.pt", weights_only=True)
    assert weights.keys() == again.keys() and all(torch.equal(weights[k], again[k]) for k in weights)
    assert model_hash(model) == judged != path_hash(model)
    fresh = [json.loads(line) for line in (tmp_path / "ipc-fresh" / "records.jsonl").read_text().splitlines()]
    assert len(fresh) == 2 and {r["setting"] for r in fresh} == {r["setting"] for r in records if r["method"] == "gnn-v"}
    assert main(["bench", "ipc2023", "--benchmarks", str(benchmarks), "--methods", "gnn-v", "--out", str(out)]) == 2
    assert main(["bench", "ipc2023", "--benchmarks", str(benchmarks), "--methods", "rules", "--grid", str(config_file),
                 "--out", str(out)]) == 2  # --grid without a neural method: one line, not ignored


def test_models_trained_on_one_machine_are_evaluated_on_another(tmp_path, cache, capsys):
    # --train-only trains and evaluates nothing (on a GPU machine, say); the grid run where its
    # artifacts folder is copied evaluates those models instead of training its own
    config_file = tmp_path / "gnn.toml"
    config_file.write_text("""
domains = ["gripper"]
methods = ["gnn-q-exp", "lama-first"]
[evaluation]
max_size = 6
max_runs_per_size = 2
[gnn]
epochs = 2
layers = 1
hidden = 4
batch_size = 8
validation_instances = 1
validation_sizes = 1
sizes = { gripper = "5:6" }
per_size = { gripper = 1 }
""")
    trainer = tmp_path / "trainer"
    assert main(["experiment", str(config_file), "--out", str(trainer), "--train-only"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("1 of 1 models trained")  # the planner has nothing to train
    assert printed[0].startswith("gripper.gnn-q-exp.s0: ") and "artifacts/gripper/gnn-q-exp-s0-" in printed[0]
    assert not (trainer / "cells").exists() and not (trainer / "evaluations").exists()
    (learned,) = (trainer / "artifacts").rglob("learned.json")
    weights = (learned.parent / "model.pt").read_bytes()
    assert main(["experiment", str(config_file), "--out", str(trainer), "--status"]) == 0
    assert re.split(r"\s{2,}", capsys.readouterr().out.splitlines()[0])[:2] == ["gripper.gnn-q-exp.s0", "trained"]

    evaluator = tmp_path / "evaluator"
    shutil.copytree(trainer / "artifacts", evaluator / "artifacts")
    rows = run_experiment(load_config(config_file, out=evaluator)).grid.rows
    gnn = next(row for row in rows if row.method == "gnn-q-exp")
    assert gnn.status == "ok" and gnn.learn_seconds == json.loads(learned.read_text())["seconds"]
    assert (evaluator / gnn.artifact / "model.pt").read_bytes() == weights
    with pytest.raises(SystemExit):  # one thing at a time
        main(["experiment", str(config_file), "--train-only", "--status"])
