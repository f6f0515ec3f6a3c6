"""Experiment configs: a valid grid parses; each mistake is one line naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratpol.cli import main
from stratpol.errors import InputError
from stratpol.experiment.config import load_config
from stratpol.methods import method, method_names

VALID = """
domains = ["gripper", "ferry"]
methods = ["rules", "gnn-q-exp", "wl-xgb-delta", "lama-first"]
seeds = [0, 1]
[evaluation]
max_size = 12
seconds_per_size = 5
ipc_benchmarks = "ipc"
[gnn]
epochs = 3
sizes = { gripper = "5:8" }
per_size = { gripper = 2 }
"""


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "ipc").mkdir(exist_ok=True)
    path = tmp_path / "grid.toml"
    path.write_text(text)
    return path


def test_a_valid_config_parses_with_paths_relative_to_the_file(tmp_path):
    config = load_config(_write(tmp_path, VALID))
    assert config.name == "grid"
    assert config.domains == ("gripper", "ferry") and config.seeds == (0, 1)
    assert config.out == tmp_path.resolve() / "results" / "grid"
    assert config.evaluation.protocol.max_size == 12 and config.evaluation.protocol.seconds_per_size == 5.0
    assert config.evaluation.ipc_benchmarks == str((tmp_path / "ipc").resolve())
    assert config.gnn.training.epochs == 3 and config.gnn.sizes == {"gripper": "5:8"} and config.gnn.training.layers == 16
    assert config.evaluation_jobs == 1
    assert load_config(_write(tmp_path, "evaluation_jobs = 2\n" + VALID)).evaluation_jobs == 2


def test_a_teacher_chain_is_a_teacher_and_a_wrong_planner_in_it_is_named(tmp_path):
    config = load_config(_write(tmp_path, VALID + '[rules]\nteacher = "lapkt-siw+bfws"\n'))
    assert config.rules.learning.teacher == "lapkt-siw+bfws"
    path = _write(tmp_path, VALID + '[rules]\nteacher = "lapkt-siw+bfwz"\n')
    with pytest.raises(InputError, match="rules.teacher: unknown planner in 'lapkt-siw\\+bfwz'"):
        load_config(path)


def test_every_known_method_has_a_kind():
    assert all(method(m) is not None and method(m).name == m for m in method_names())
    assert method("gnn-x") is None and method("wl-xgb-sideways") is None
    assert method("gnn-v@fixed-loss").artifact_method == "gnn-v" and method("gnn-v").artifact_method == "gnn-v"
    assert method("gnn-v@dynamic") is None and method("rules@fixed-loss") is None


def test_a_domain_takes_its_own_largest_size_and_the_first_folder_with_its_policy(tmp_path):
    for folder, domain in (("first", "ferry"), ("second", "ferry"), ("second", "gripper")):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / f"{domain}.policy").write_text("")
    text = VALID.replace("max_size = 12", "max_size = 12\nmax_sizes = { gripper = 40 }")
    text += '[rules]\npolicies = ["first", "second"]\n'
    config = load_config(_write(tmp_path, text))
    assert config.evaluation.protocol_for("gripper").max_size == 40
    assert config.evaluation.protocol_for("ferry").max_size == 12
    assert config.rules.saved_policy("ferry") == (tmp_path / "first" / "ferry.policy").resolve()
    assert config.rules.saved_policy("gripper") == (tmp_path / "second" / "gripper.policy").resolve()
    with pytest.raises(InputError, match="no policy of blocksworld here .*rules.learn_missing"):
        config.rules.saved_policy("blocksworld")
    learning = load_config(_write(tmp_path, text + "learn_missing = true\n"))
    assert learning.rules.saved_policy("blocksworld") is None


@pytest.mark.parametrize(("change", "key"), [
    (("domains = [\"gripper\", \"ferry\"]", ""), "domains: missing"),
    (("domains = [\"gripper\", \"ferry\"]", "domains = [\"gripper\", \"nowhere\"]"), "domains: unknown domain 'nowhere'"),
    (("\"lama-first\"]", "\"lama-last\"]"), "methods: unknown method 'lama-last'"),
    (("seeds = [0, 1]", "seeds = [0, \"one\"]"), "seeds: expected a non-empty list of integers"),
    (("seeds = [0, 1]", "seeds = [0, 1]\nevaluation_jobs = 0"), "evaluation_jobs: must be"),
    (("max_size = 12", "max_size = \"twelve\""), "evaluation.max_size: expected int, got str"),
    (("max_size = 12", "max_size = -3"), "evaluation.max_size: must be at least 1, not -3"),
    (("max_size = 12", "max_sise = 12"), "evaluation.max_sise: unknown key"),
    (("ipc_benchmarks = \"ipc\"", "ipc_benchmarks = \"missing\""), "evaluation.ipc_benchmarks: folder not found"),
    (("epochs = 3", "epochs = 3.5"), "gnn.epochs: expected int, got float"),
    (("gripper = \"5:8\"", "gripper = \"8:5\""), "gnn.sizes.gripper: expected a size range"),
    (("gripper = 2", "gripper = \"two\""), "gnn.per_size.gripper: expected int"),
    (("\"gnn-q-exp\"", "\"gnn-q-exp@fixed-loss\""), "methods: gnn-q-exp@fixed-loss needs a fixed validation set"),
    (("max_size = 12", "max_size = 12\nmax_sizes = { ferry = 0 }"), "evaluation.max_sizes.ferry: must be positive"),
    (("[gnn]", "[rules]\npolicies = [\"ipc\", 3]\n[gnn]"), "rules.policies: expected a folder or a list of folders"),
    (("[gnn]", "[rules]\ntie_break = \"best\"\n[gnn]"), "rules.tie_break: unknown tie-break 'best'"),
    (("max_size = 12", "max_size = 12\nbudget_clock = \"cpu-time\""),
     "evaluation.budget_clock: must be one of wall, cpu, not 'cpu-time'"),
])
def test_a_mistake_names_the_file_and_the_key(tmp_path, change, key):
    old, new = change
    assert old in VALID
    path = _write(tmp_path, VALID.replace(old, new))
    with pytest.raises(InputError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {key}"), message
    assert "\n" not in message


def test_broken_toml_and_missing_files_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="not valid TOML"):
        load_config(_write(tmp_path, "domains = [\"gripper\""))
    with pytest.raises(InputError, match="experiment config not found"):
        load_config(tmp_path / "absent.toml")


def test_the_cli_prints_one_line_and_exits_with_2(tmp_path, capsys):
    path = _write(tmp_path, VALID.replace("\"rules\",", "\"rulez\","))
    assert main(["experiment", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"{path}: methods: unknown method 'rulez'" in error


def test_an_ipc_set_must_define_the_generators_domain(tmp_path):
    """IPC problems are read with the generator's domain file: another domain is refused, naming its file."""
    from stratpol.generation import domain_folder

    ferry = tmp_path / "ipc" / "ferry"
    (ferry / "testing" / "easy").mkdir(parents=True)
    ours = domain_folder("ferry").domain_file.read_text()
    (ferry / "domain.pddl").write_text(";; a comment\n" + ours.upper().replace("\n", "\n  "))
    assert load_config(_write(tmp_path, VALID)).ipc_folder("ferry") == ferry.resolve()
    (ferry / "domain.pddl").write_text(ours.replace("(not (empty-ferry))", ""))
    with pytest.raises(InputError, match="differs from .*ferry/domain.pddl") as caught:
        load_config(_write(tmp_path, VALID))
    assert caught.value.path == ferry.resolve() / "domain.pddl"


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (ROOT.parent / "shared" / "benchmarks").is_dir(), reason="../shared/benchmarks is not here")
def test_the_shipped_configs_agree_with_the_ipc_domains():
    configs = sorted((ROOT / "experiments").glob("*.toml"))
    assert configs
    for config in configs:
        load_config(config)


def test_excluded_cells_are_left_out_of_the_grid_and_a_wrong_one_is_named(tmp_path):
    from stratpol.experiment.grid import cells

    config = load_config(_write(tmp_path, 'exclude = ["ferry.wl-xgb-delta"]\n' + VALID))
    ids = [cell.id for cell in cells(config)]
    assert "ferry.wl-xgb-delta.s0" not in ids and "gripper.wl-xgb-delta.s0" in ids and len(ids) == 12
    with pytest.raises(InputError, match="exclude: 'ferry.gnn-v' is not a cell of this grid"):
        load_config(_write(tmp_path, 'exclude = ["ferry.gnn-v"]\n' + VALID))


def test_the_training_device_changes_neither_the_cells_nor_their_models(tmp_path):
    from stratpol.experiment.cells import Cell, artifact_folder, cell_fingerprint

    config = load_config(_write(tmp_path, VALID))
    on_gpu = config.training_on("cuda")
    assert on_gpu.gnn.training.device == "cuda" and config.gnn.training.device == "cpu"
    cell = Cell("gripper", "gnn-q-exp", 0)
    assert artifact_folder(on_gpu, cell) == artifact_folder(config, cell)
    assert cell_fingerprint(on_gpu, cell) == cell_fingerprint(config, cell)
    deeper = load_config(_write(tmp_path, VALID.replace("epochs = 3", "epochs = 3\nlayers = 30")))
    assert artifact_folder(deeper, cell) != artifact_folder(config, cell)


def test_the_tie_break_keys_the_rule_cells_evaluations_not_their_policies(tmp_path):
    from stratpol.experiment.cells import Cell, artifact_folder, cell_fingerprint

    config = load_config(_write(tmp_path, VALID))
    explicit = load_config(_write(tmp_path, VALID.replace("[gnn]", "[rules]\ntie_break = \"random\"\n[gnn]")))
    ordered = load_config(_write(tmp_path, VALID.replace("[gnn]", "[rules]\ntie_break = \"rule-order\"\n[gnn]")))
    assert ordered.rules.tie_break == "rule-order" and config.rules.tie_break == "random"
    rules, neural = Cell("gripper", "rules", 0), Cell("gripper", "gnn-q-exp", 0)
    # the default keeps the keys of the cells run before the setting existed
    assert cell_fingerprint(explicit, rules) == cell_fingerprint(config, rules)
    assert cell_fingerprint(ordered, rules) != cell_fingerprint(config, rules)
    assert artifact_folder(ordered, rules) == artifact_folder(config, rules)  # the same policy
    assert cell_fingerprint(ordered, neural) == cell_fingerprint(config, neural)


def test_the_budget_clock_keys_every_cells_evaluation_and_the_default_keeps_the_keys(tmp_path):
    from stratpol.experiment.cells import Cell, artifact_folder, cell_fingerprint

    config = load_config(_write(tmp_path, VALID))
    wall = load_config(_write(tmp_path, VALID.replace("max_size = 12", "max_size = 12\nbudget_clock = \"wall\"")))
    cpu = load_config(_write(tmp_path, VALID.replace("max_size = 12", "max_size = 12\nbudget_clock = \"cpu\"")))
    assert cpu.evaluation.protocol.budget_clock == "cpu" and config.evaluation.protocol.budget_clock == "wall"
    for cell in (Cell("gripper", "rules", 0), Cell("gripper", "gnn-q-exp", 0), Cell("ferry", "lama-first", 0)):
        assert cell_fingerprint(wall, cell) == cell_fingerprint(config, cell) != cell_fingerprint(cpu, cell)
        assert artifact_folder(cpu, cell) == artifact_folder(config, cell)  # the same training


def test_training_on_a_missing_gpu_is_one_line_before_any_cell_runs(tmp_path, capsys):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    path = _write(tmp_path, VALID)
    assert main(["experiment", str(path), "--device", "cuda", "--train-only"]) == 2
    assert capsys.readouterr().err == "stratpol: error: --device cuda: no CUDA device is available here\n"
    assert not (tmp_path / "results").exists()
