"""The `hintlens` wheel as a benchmark builder uses it.

Run by scripts/test-python.sh, which builds the wheel, installs it alone into a fresh venv
(HINTLENS_FRESH_VENV) and into the tools venv running these tests (with pyarrow and datasets).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from datasets import Dataset, load_dataset

import hintlens

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "benchmarks-data" / "example"
FRESH = Path(os.environ["HINTLENS_FRESH_VENV"])
FRESH_BIN = FRESH / "bin"


def run(args, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stderr}\n{done.stdout}"
    return done


def example_rows() -> list:
    return [json.loads(line) for line in (EXAMPLE / "tasks.jsonl").read_text().splitlines() if line.strip()]


def jsonl(path: Path) -> list:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def in_dataset_order(records, rows) -> list:
    by_id = {r["instance_id"]: r for r in records}
    return [by_id[row["instance_id"]] for row in rows]


@pytest.fixture(scope="module")
def single_run() -> list:
    """The README example's records, from the wheel's command, in dataset order."""
    done = run([FRESH_BIN / "hintlens", "batch", "benchmarks-data/example/tasks.jsonl", "--repos", "benchmarks-data/example/repos"], cwd=ROOT)
    return in_dataset_order([json.loads(line) for line in done.stdout.splitlines()], example_rows())


# --- the wheel ---------------------------------------------------------------------------------


def test_the_readme_example_through_the_command(single_run):
    assert [r["status"] for r in single_run] == ["ok"] * 5
    names = [i["name"] for i in single_run[0]["selections"]["defuse"]]
    assert names == ["separator", "truncate_slug"]
    assert "def truncate_slug(slug: str, max_length: int = 20) -> str" in single_run[0]["hints"]["defuse+declaration"]


def test_the_readme_example_through_the_python_api(single_run):
    script = (
        "import hintlens, json\n"
        "records = hintlens.batch('benchmarks-data/example/tasks.jsonl', repos='benchmarks-data/example/repos')\n"
        "print(json.dumps(list(records)))\n"
    )
    done = run([FRESH_BIN / "python", "-c", script], cwd=ROOT)
    assert in_dataset_order(json.loads(done.stdout), example_rows()) == single_run
    # `python -m hintlens` is the binary.
    assert run([FRESH_BIN / "python", "-m", "hintlens", "--version"]).stdout.startswith("hintlens ")


def test_the_wheel_needs_nothing_else():
    installed = run([FRESH_BIN / "python", "-m", "pip", "list", "--format=json"]).stdout
    names = sorted(p["name"].lower() for p in json.loads(installed))
    assert [n for n in names if n not in ("pip", "setuptools", "wheel")] == ["hintlens"]
    assert Path(run([FRESH_BIN / "python", "-c", "import hintlens; print(hintlens.find_hintlens_bin())"]).stdout.strip()) == FRESH_BIN / "hintlens"


def test_the_wheel_ships_the_license_and_the_record_schema(single_run):
    script = (
        "import hintlens, json, importlib.metadata as m\n"
        "d = m.distribution('hintlens')\n"
        "print(json.dumps({'version': d.version,\n"
        "  'license': d.metadata.get('License-Expression') or d.metadata.get('License'),\n"
        "  'files': [str(f) for f in d.files], 'schema': hintlens.record_schema()}))\n"
    )
    shipped = json.loads(run([FRESH_BIN / "python", "-c", script]).stdout)
    assert shipped["license"] == "MIT OR Apache-2.0"
    assert any(f.endswith("LICENSE-MIT") for f in shipped["files"]), shipped["files"]
    assert any(f.endswith("LICENSE-APACHE") for f in shipped["files"]), shipped["files"]
    # One version: the wheel's is the crates' (`hintlens 0.1.0 (1a2b3c4)`).
    printed = run([FRESH_BIN / "hintlens", "--version"]).stdout
    assert printed.startswith(f"hintlens {shipped['version']} ("), printed
    schema = shipped["schema"]
    assert schema == json.loads((ROOT / "docs" / "src" / "reference" / "record.schema.json").read_text())
    assert set(single_run[0]) <= set(schema["properties"])


# --- the Python API ----------------------------------------------------------------------------


def test_records_in_memory_as_lists_datasets_and_data_frames(single_run):
    rows = example_rows()
    repos = EXAMPLE / "repos"
    assert in_dataset_order(list(hintlens.batch(rows, repos=repos)), rows) == single_run
    dataset = Dataset.from_list(rows)
    assert in_dataset_order(list(hintlens.batch(dataset, repos=repos, jobs=1)), rows) == single_run
    frame = dataset.to_pandas()
    records = list(hintlens.batch(frame, repos=str(repos), selections=["defuse", "fea"], projections="name"))
    assert sorted(records[0]["hints"]) == ["defuse+name", "fea+name"]
    # Stopping early ends the run.
    for record in hintlens.batch(rows, repos=repos, jobs=1):
        assert record["status"] == "ok"
        break


def test_a_batch_that_cannot_run_raises_and_a_failing_task_does_not():
    with pytest.raises(hintlens.HintlensError) as error:
        list(hintlens.batch("no/such/tasks.jsonl", repos=EXAMPLE / "repos"))
    assert error.value.returncode == 2
    assert "cannot read dataset no/such/tasks.jsonl" in str(error.value)
    with pytest.raises(TypeError, match="record 1 is a str"):
        list(hintlens.batch(["not a record"]))
    rows = example_rows()[:2]
    rows[1]["base_commit"] = "0" * 40
    records = {r["instance_id"]: r for r in hintlens.batch(rows, repos=EXAMPLE / "repos")}
    assert records[rows[1]["instance_id"]]["error"]["kind"] == "commit_not_found"


# --- Parquet -----------------------------------------------------------------------------------


def multi_swe_bench_rows() -> list:
    """The example in Multi-SWE-bench's field names: org + repo, base.sha, fix_patch, issues."""
    rows = []
    for row in example_rows():
        org, name = row["repo"].split("/")
        title, _, body = row["problem_statement"].partition("\n")
        rows.append(
            {
                "org": org,
                "repo": name,
                "number": len(rows) + 1,
                "instance_id": row["instance_id"],
                "base": {"label": f"{org}:main", "ref": "main", "sha": row["base_commit"]},
                "resolved_issues": [{"number": 1, "title": title, "body": body}],
                "fix_patch": row["patch"],
                "test_patch": row["test_patch"],
            }
        )
    return rows


def test_parquet_written_by_pyarrow(tmp_path, single_run):
    table = pa.Table.from_pylist(multi_swe_bench_rows())
    # Types pyarrow and datasets write: large strings, dictionary-encoded text.
    table = table.set_column(table.schema.get_field_index("fix_patch"), "fix_patch", table["fix_patch"].cast(pa.large_string()))
    table = table.set_column(table.schema.get_field_index("org"), "org", table["org"].dictionary_encode())
    path = tmp_path / "multi-swe-bench.parquet"
    pq.write_table(table, path)
    out = tmp_path / "results.jsonl"
    run([FRESH_BIN / "hintlens", "batch", path, "--repos", EXAMPLE / "repos", "--out", out])
    records = in_dataset_order(jsonl(out), example_rows())
    assert [r["hints"] for r in records] == [r["hints"] for r in single_run]

    # Hugging Face's layout: a directory of shards, written by `datasets`.
    data = tmp_path / "hf" / "data"
    data.mkdir(parents=True)
    rows = example_rows()
    Dataset.from_list(rows[:3]).to_parquet(data / "test-00000-of-00002.parquet")
    Dataset.from_list(rows[3:]).to_parquet(data / "test-00001-of-00002.parquet")
    records = in_dataset_order(hintlens.batch(tmp_path / "hf", repos=EXAMPLE / "repos"), rows)
    assert records == single_run

    # Results as Parquet, read by pyarrow.
    results = tmp_path / "results.parquet"
    run([FRESH_BIN / "hintlens", "batch", tmp_path / "hf", "--repos", EXAMPLE / "repos", "--out", results])
    table = pq.read_table(results)
    assert table.num_rows == 5
    hints = {r["instance_id"]: r["hints"]["defuse+declaration"] for r in table.to_pylist()}
    assert hints == {r["instance_id"]: r["hints"]["defuse+declaration"] for r in single_run}


# --- augment -----------------------------------------------------------------------------------


def augment(dataset, out, *args, expect=0):
    done = subprocess.run(
        [str(FRESH_BIN / "hintlens"), "augment", str(dataset), "--repos", str(EXAMPLE / "repos"), "--out", str(out), *args],
        capture_output=True,
        text=True,
    )
    assert done.returncode == expect, done.stderr
    return done


def test_augmented_datasets_load_with_the_datasets_library(tmp_path, single_run):
    rows = example_rows()
    rows[2]["base_commit"] = "0" * 40  # fails: its row stays as it was
    failing = rows[2]["instance_id"]
    hints = [r["hints"]["defuse+declaration"] for r in single_run]

    source = tmp_path / "tasks.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "hinted.jsonl"
    done = augment(source, out, expect=1)
    assert f"no hint, row left unchanged: {failing}: error (commit_not_found)" in done.stderr
    loaded = load_dataset("json", data_files=str(out), split="train")
    assert loaded.column_names == list(rows[0]) + ["hints"]
    assert loaded["instance_id"] == [r["instance_id"] for r in rows]
    assert loaded["hints"] == [h if i != 2 else None for i, h in enumerate(hints)]
    assert loaded["problem_statement"] == [r["problem_statement"] for r in rows]
    report = jsonl(tmp_path / "hinted.jsonl.report.jsonl")
    assert [(r["instance_id"], r["error"]["kind"]) for r in report] == [(failing, "commit_not_found")]

    # Parquet written by `datasets` (its features in the schema metadata), as shards.
    data = tmp_path / "hf" / "data"
    data.mkdir(parents=True)
    Dataset.from_list(rows[:3]).to_parquet(data / "test-00000-of-00002.parquet")
    Dataset.from_list(rows[3:]).to_parquet(data / "test-00001-of-00002.parquet")
    out = tmp_path / "hinted-hf"
    augment(tmp_path / "hf", out, "--into", "hint", expect=1)
    files = sorted(str(p) for p in out.rglob("*.parquet"))
    assert [Path(f).relative_to(out).as_posix() for f in files] == ["data/test-00000-of-00002.parquet", "data/test-00001-of-00002.parquet"]
    loaded = load_dataset("parquet", data_files=files, split="train")
    assert loaded.column_names == list(rows[0]) + ["hint"]
    assert loaded.features["hint"].dtype == "string"
    assert loaded["hint"] == [h if i != 2 else None for i, h in enumerate(hints)]
    assert loaded["patch"] == [r["patch"] for r in rows]

    # Appended to the problem statement of a single Parquet file.
    single = tmp_path / "tasks.parquet"
    Dataset.from_list(rows).to_parquet(single)
    out = tmp_path / "appended.parquet"
    augment(single, out, "--append-to", "problem_statement", "--projection", "name", expect=1)
    loaded = load_dataset("parquet", data_files=str(out), split="train")
    assert loaded.column_names == list(rows[0])
    first = loaded["problem_statement"][0]
    assert first.startswith(rows[0]["problem_statement"].rstrip("\n") + "\n\nIf completing this task requires")
    assert first.endswith("\n- `separator`\n- `truncate_slug`\n")
    assert loaded["problem_statement"][2] == rows[2]["problem_statement"]


# --- the deploy examples, run as the engines would run them ------------------------------------


def shard_dataset(tmp_path) -> Path:
    path = tmp_path / "tasks.jsonl"
    shutil.copy(EXAMPLE / "tasks.jsonl", path)
    return path


def test_the_slurm_example(tmp_path, single_run):
    script = ROOT / "deploy" / "slurm" / "hintlens-array.sbatch"
    array = next(line for line in script.read_text().splitlines() if line.startswith("#SBATCH --array="))
    first, last = map(int, array.split("=")[1].split("-"))
    count = last - first + 1
    out = tmp_path / "out"
    env = dict(os.environ, DATASET=str(shard_dataset(tmp_path)), REPOS=str(EXAMPLE / "repos"), OUT=str(out), HINTLENS=str(FRESH_BIN / "hintlens"))
    shards = [
        subprocess.Popen(
            ["bash", str(script)],
            env=dict(env, SLURM_ARRAY_JOB_ID="7", SLURM_ARRAY_TASK_ID=str(k), SLURM_ARRAY_TASK_COUNT=str(count), SLURM_ARRAY_TASK_MIN=str(first), SLURM_CPUS_PER_TASK="1"),
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(first, last + 1)
    ]
    for shard in shards:
        assert shard.wait() == 0, shard.stderr.read()
    run(["bash", script, "merge"], env=env)
    assert jsonl(out / "results.jsonl") == single_run


def test_the_kubernetes_example(tmp_path, single_run):
    documents = list(yaml.safe_load_all((ROOT / "deploy" / "kubernetes" / "indexed-job.yaml").read_text()))
    named = {(d["kind"], d["metadata"]["name"]): d for d in documents}
    settings = named[("ConfigMap", "hintlens")]["data"]
    scripts = named[("ConfigMap", "hintlens-scripts")]["data"]
    job = named[("Job", "hintlens-shards")]["spec"]
    assert job["completionMode"] == "Indexed"
    assert job["completions"] == int(settings["SHARDS"]), "the Job's completions and SHARDS agree"
    container = job["template"]["spec"]["containers"][0]
    assert {"name": "HINTLENS_SHARDS", "valueFrom": {"configMapKeyRef": {"name": "hintlens", "key": "SHARDS"}}} in container["env"]
    etc = tmp_path / "etc"
    etc.mkdir()
    for name, text in scripts.items():
        (etc / name).write_text(text)
    # The repositories are cloned from local bare repositories, as from their hosts.
    repos_list = tmp_path / "repos.txt"
    repos_list.write_text("".join(f"acme/{n} {EXAMPLE / 'repos' / f'acme__{n}.git'}\n" for n in ("textkit", "jsonlite")))
    # The ConfigMap's settings with the volume's paths moved here.
    env = {**os.environ, **settings}
    env.update(
        DATASET=str(shard_dataset(tmp_path)),
        REPOS=str(tmp_path / "repos"),
        OUT=str(tmp_path / "out"),
        REPOS_LIST=str(repos_list),
        PATH=f"{FRESH_BIN}{os.pathsep}{os.environ['PATH']}",
    )
    run(["sh", etc / "prepare.sh"], env=env)
    assert (tmp_path / "repos" / "acme__textkit.git" / "HEAD").exists()
    shards = [
        subprocess.Popen(
            ["sh", str(etc / "shard.sh")],
            env=dict(env, JOB_COMPLETION_INDEX=str(k), HINTLENS_SHARDS=settings["SHARDS"]),
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(job["completions"])
    ]
    for shard in shards:
        assert shard.wait() == 0, shard.stderr.read()
    run(["sh", etc / "merge.sh"], env=env)
    assert jsonl(tmp_path / "out" / "results.jsonl") == single_run
