"""`stratpol train-gnn` and `stratpol evaluate MODEL_DIR` as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def stratpol(*args, cache) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "stratpol.cli", *map(str, args)], capture_output=True, text=True, check=False,
                          timeout=300, env={**os.environ, "STRATPOL_CACHE": str(cache)})


def test_train_then_evaluate_a_checkpoint(tmp_path):
    model = tmp_path / "model"
    trained = stratpol("train-gnn", "gripper", "--value", "q-exp", "--sizes", "5:8", "--per-size", "1",
                       "--planner", "astar-lmcut", "--epochs", "4", "--hidden", "8", "--layers", "3",
                       "--batch-size", "16", "--validate-every", "2", "--validation-instances", "1",
                       "--validation-sizes", "1", "--device", "cpu", "--out", model, cache=tmp_path / "cache")
    assert trained.returncode == 0, trained.stderr
    assert "gripper q-exp: 4 instances (sizes 5-8)" in trained.stdout
    assert "epoch 4/4" in trained.stderr  # progress goes to stderr
    report = json.loads((model / "training.json").read_text())
    assert len(report["epochs"]) == 4 and report["best_epoch"] in (2, 4)
    assert json.loads((model / "gnn.json").read_text())["value"] == "q-exp"

    out = tmp_path / "evaluation"
    evaluated = stratpol("evaluate", model, "--domain", "gripper", "--max-size", "6", "--out", out,
                         cache=tmp_path / "cache")
    assert evaluated.returncode == 0, evaluated.stderr
    assert evaluated.stdout.splitlines()[-1].startswith("Scale ")
    assert (out / "runs.jsonl").is_file() and (out / "scaling.png").is_file()

    wrong = stratpol("evaluate", model, "--domain", "blocksworld", "--out", tmp_path / "x", cache=tmp_path / "cache")
    assert wrong.returncode == 2
    assert wrong.stderr.strip() == f"stratpol: error: {model}: the model was trained on gripper, not blocksworld"


def test_bad_input_is_one_line(tmp_path):
    unknown = stratpol("train-gnn", "nosuchdomain", "--out", tmp_path / "m", cache=tmp_path)
    assert unknown.returncode == 2 and len(unknown.stderr.strip().splitlines()) == 1
    assert "nosuchdomain" in unknown.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    neither = stratpol("evaluate", empty, "--domain", "gripper", "--out", tmp_path / "e", cache=tmp_path)
    assert neither.returncode == 2
    assert "neither a GNN checkpoint" in neither.stderr and len(neither.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "m").exists()
