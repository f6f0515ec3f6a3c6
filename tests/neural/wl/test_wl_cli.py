"""`stratpol train-wl` as a user runs it: a model folder, or one line and exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys


def stratpol(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "stratpol.cli", *map(str, args)], check=False, capture_output=True,
                          text=True, timeout=300)


def test_unknown_domain_is_one_line_and_exit_2(tmp_path):
    result = stratpol("train-wl", "no-such-domain", "--out", tmp_path / "m")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "unknown domain 'no-such-domain'" in result.stderr
    assert not (tmp_path / "m").exists()


def test_unknown_model_is_refused(tmp_path):
    result = stratpol("train-wl", "gripper", "--model", "forest", "--out", tmp_path / "m")
    assert result.returncode == 2 and "invalid choice: 'forest'" in result.stderr


def test_train_wl_writes_a_model_folder(tmp_path, wl_teacher_cache, monkeypatch):
    out = tmp_path / "model"
    env_cache = wl_teacher_cache.parent  # STRATPOL_CACHE/teacher is where the plans are kept
    monkeypatch.setenv("STRATPOL_CACHE", str(env_cache))
    result = stratpol("train-wl", "gripper", "--sizes", "6:7", "--validation-sizes", "8", "--epochs", "20",
                      "--out", out)
    assert result.returncode == 0, result.stderr
    assert "D = " in result.stdout
    config = json.loads((out / "wl-model.json").read_text())
    assert (config["domain"], config["model"], config["mode"], config["iterations"], config["beam_width"]) == \
        ("gripper", "xgb", "delta", 2, 3)
    assert (out / "wl-features.json").is_file() and (out / "xgb.ubj").is_file()
