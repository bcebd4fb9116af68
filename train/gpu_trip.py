"""Train on a lent GPU machine: pack what the trip needs, sweep there, unpack what comes back.

A lent machine (the ``device`` tool; see train/README.md, "On a lent GPU") gets a copy of
the working tree and at most 64 MiB in all, has no network, gives 15 minutes, and returns at
most 8 files of 16 MiB. The base encoder alone is 91 MB in fp32, so the trip is planned:

- ``pack`` (here): the base encoder's matrices as int8 with one scale per row (about 21 MB;
  it is the starting point of fine-tuning, not the shipped model), the built training data,
  the binding rows when given, and the evidence windows (the ones the engine would score) of
  the dev sets and of the development contrast set, gzipped, into ``.trip/`` (git-ignored;
  name it in the run's ``carry``).
- ``sweep`` (there): rebuilds the base, trains stage 1 once, then several stage-2 variants at
  once on the one GPU (with ``"binding": true``, on stage 2's rows and the binding rows), scores
  each by the AUC of the best window's P(entailment) on held-out training rows and on the
  development contrast set (what picks the run; the dev sets' AUC is reported beside it), and
  writes the best weights in fp16, split into parts that fit the way back, beside a report.
  With ``--soup`` the average of the finished stage-2 runs competes too. Every run has a deadline, so something comes back even
  if the machine is slower than planned.
- ``unpack`` (here): joins the parts into a train.py work folder that export.py reads; given
  several returned folders, it averages their models (pack 1.2 is two sweeps' best, averaged).

Only numpy is needed to pack the weights and split the files (both are unit-tested without
torch); torch and transformers only where a model is trained or loaded.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.metrics import roc_auc as auc

HERE = Path(__file__).resolve().parent
#: One returned file may be 16 MiB; parts stay under that.
PART_BYTES = 15 * 2**20
BASE_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")
DATA_FILES = ("stage1.jsonl", "stage2.jsonl", "heldout.jsonl", "mix.json")
#: The binding rows (``train.binding_rows``), when the trip carries them: a variant with
#: ``"binding": true`` trains stage 2 on stage2.jsonl and these together.
BINDING_FILE = "binding.jsonl"
#: Held-out training rows each run is scored on (one window each: the premise).
HELDOUT_ROWS = 1200
#: The contrast kinds the issue asks the model alone to turn down (P(entailment) < 0.5).
BINDING_KINDS = ("polarity", "antonym", "role_reversal")
#: Stage 1 once, then these stage-2 variants side by side (each from the stage-1 weights).
STAGE1 = {"epochs": 2, "lr": 8e-5, "max_length": 160}
STAGE2 = {
    "s2-lr5-e2": {"epochs": 2, "lr": 5e-5, "max_length": 160, "seed": 7},
    "s2-lr5-e3": {"epochs": 3, "lr": 5e-5, "max_length": 160, "seed": 11},
    "s2-lr3-e3": {"epochs": 3, "lr": 3e-5, "max_length": 160, "seed": 7},
    "s2-lr5-e3-len256": {"epochs": 3, "lr": 5e-5, "max_length": 256, "seed": 7},
    "s2-lr5-e3-len256-binding": {"epochs": 3, "lr": 5e-5, "max_length": 256, "seed": 7, "binding": True},
}
#: The seed of a run whose settings name none (train.py's default).
SEED = 7
#: Share of the time budget stage 1 may use; stage 2 must end by STAGE2_SHARE.
STAGE1_SHARE, STAGE2_SHARE = 0.35, 0.85


# ---------------------------------------------------------------- weights and parts (numpy only)


def quantise(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 with one scale per row: each weight is off by at most half a step."""
    scale = np.abs(matrix).max(axis=1, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    return np.round(matrix / scale).astype(np.int8), scale.astype(np.float32)


def pack_weights(weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Matrices as ``name.int8`` + ``name.scale``; vectors (biases, norms) stay float32."""
    packed: dict[str, np.ndarray] = {}
    for name, value in weights.items():
        value = np.asarray(value, dtype=np.float32)
        if value.ndim == 2:
            packed[name + ".int8"], packed[name + ".scale"] = quantise(value)
        else:
            packed[name] = value
    return packed


def unpack_weights(packed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    weights: dict[str, np.ndarray] = {}
    for name, value in packed.items():
        if name.endswith(".int8"):
            stem = name.removesuffix(".int8")
            weights[stem] = value.astype(np.float32) * packed[stem + ".scale"]
        elif not name.endswith(".scale"):
            weights[name] = np.asarray(value, dtype=np.float32)
    return weights


def split(path: Path, part_bytes: int = PART_BYTES) -> list[Path]:
    """Cut a file into ``name.part0``, ``name.part1``, … of at most ``part_bytes`` each."""
    parts = []
    with open(path, "rb") as handle:
        while chunk := handle.read(part_bytes):
            part = path.with_name(f"{path.name}.part{len(parts)}")
            part.write_bytes(chunk)
            parts.append(part)
    return parts


def join(folder: Path, name: str, out: Path) -> Path:
    """Concatenate ``name.part0``, ``name.part1``, … from ``folder`` into ``out``; a gap is an error."""
    parts = {int(p.name.rsplit(".part", 1)[1]): p for p in folder.glob(f"{name}.part*")}
    if not parts or sorted(parts) != list(range(len(parts))):
        raise SystemExit(f"{folder}: parts of {name} missing or out of sequence: {sorted(parts)}")
    with open(out, "wb") as handle:
        for number in range(len(parts)):
            handle.write(parts[number].read_bytes())
    return out


def average(states: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The weight-by-weight mean of models trained alike from the same start (a "model soup")."""
    names = states[0].keys()
    if any(state.keys() != names or any(state[n].shape != states[0][n].shape for n in names) for state in states):
        raise SystemExit("the returned models differ in their layers: they cannot be averaged")
    return {name: np.mean([state[name].astype(np.float32) for state in states], axis=0) for name in names}


# ---------------------------------------------------------------- pack (here)


def dev_windows(paths: list[Path], k: int) -> list[dict]:
    """Each dev claim with the evidence windows the engine would score for it (model-independent)."""
    from citemark.scoring.retrieve import EvidenceIndex
    from train.fit_combiner import dev_rows

    return [{"set": row["group"], "claim": row["hypothesis"], "supported": row["label"] == "entailment",
             "windows": [hit.text for hit in EvidenceIndex(row["premise"]).search(row["hypothesis"], k=k)]}
            for row in dev_rows(paths)]


def contrast_windows(k: int) -> list[dict]:
    """The development contrast set's claims (train/contrast_dev/, never the suite) with their windows."""
    from citemark.scoring.retrieve import EvidenceIndex
    from train.contrast_dev import PARTS, TRUE_KINDS, claims_and_texts

    pairs = claims_and_texts(list(PARTS))
    indexes = {text: EvidenceIndex(text) for text in {text for _, text in pairs}}  # one index a page
    return [{"kind": claim["kind"], "claim": claim["claim"], "supported": claim["kind"] in TRUE_KINDS,
             "windows": [hit.text for hit in indexes[text].search(claim["claim"], k=k)]}
            for claim, text in pairs]


def pack(args: argparse.Namespace) -> None:
    from safetensors.numpy import load_file

    from citemark.settings import Settings
    from train.train import default_base

    out: Path = args.out
    shutil.rmtree(out, ignore_errors=True)
    (out / "base").mkdir(parents=True)
    base = default_base()
    np.savez_compressed(out / "base" / "weights.npz", **pack_weights(load_file(str(base / "model.safetensors"))))
    for name in BASE_FILES:
        shutil.copy(base / name, out / "base" / name)
    (out / "data").mkdir()
    sources = {name: args.data / name for name in DATA_FILES}
    if args.binding:
        sources[BINDING_FILE] = args.binding
    for name, path in sources.items():
        with open(path, "rb") as source, gzip.open(out / "data" / f"{name}.gz", "wb") as target:
            shutil.copyfileobj(source, target)
    k = Settings().evidence_windows
    written = {"dev-windows": dev_windows(args.dev, k), "contrast-windows": contrast_windows(k)}
    for name, windows in written.items():
        with gzip.open(out / f"{name}.jsonl.gz", "wt", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in windows)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(json.dumps({"trip": str(out), "bytes": size, "dev_claims": len(written["dev-windows"]),
                      "contrast_claims": len(written["contrast-windows"])}))


# ---------------------------------------------------------------- sweep (there)


def held_out_windows(path: Path, count: int) -> list[dict]:
    """``count`` held-out rows drawn with a fixed seed from every set (the file is in set order,
    so its first rows would be general NLI only), each premise as its claim's one window."""
    import random

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = random.Random(1).sample(rows, min(count, len(rows)))
    return [{"claim": row["hypothesis"], "windows": [row["premise"]], "supported": row["label"] == "entailment"}
            for row in chosen]


def _windows(path: Path, limit: int | None) -> list[dict]:
    """Claims with their windows, as pack wrote them (none when an older trip lacks the file);
    with ``limit`` (a dry run), every n-th claim."""
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return rows[:: max(1, len(rows) // limit)] if limit else rows


def rebuild_base(trip: Path, folder: Path) -> Path:
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    with np.load(trip / "base" / "weights.npz") as packed:
        save_file(unpack_weights(dict(packed)), str(folder / "model.safetensors"))
    for name in BASE_FILES:
        shutil.copy(trip / "base" / name, folder / name)
    return folder


def unzip_data(trip: Path, folder: Path, limit: int | None) -> Path:
    """The trip's data as train.py reads it; with binding rows, also ``stage2-binding.jsonl``
    (stage 2 and the binding rows in one file)."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [*DATA_FILES] + ([BINDING_FILE] if (trip / "data" / f"{BINDING_FILE}.gz").exists() else [])
    for name in names:
        with gzip.open(trip / "data" / f"{name}.gz", "rt", encoding="utf-8") as handle:
            text = handle.read()
        if limit and name.endswith(".jsonl"):
            text = "".join(text.splitlines(keepends=True)[:limit])
        (folder / name).write_text(text, encoding="utf-8")
    if BINDING_FILE in names:
        (folder / "stage2-binding.jsonl").write_text(
            (folder / "stage2.jsonl").read_text(encoding="utf-8") + (folder / BINDING_FILE).read_text(encoding="utf-8"),
            encoding="utf-8")
    return folder


def stage_file(settings: dict, stage2: bool) -> str:
    """The data file of a run: stage 1's, or stage 2's (with the binding rows when the variant asks)."""
    if not stage2:
        return "stage1.jsonl"
    return "stage2-binding.jsonl" if settings.get("binding") else "stage2.jsonl"


def train_command(data: Path, work: Path, base: Path, settings: dict, deadline: float, device: str,
                  threads: int, init: Path | None = None) -> list[str]:
    command = [
        sys.executable, "-m", "train.train", "--data", str(data / stage_file(settings, init is not None)),
        "--heldout", str(data / "heldout.jsonl"), "--work", str(work), "--base", str(base),
        "--epochs", str(settings["epochs"]), "--lr", str(settings["lr"]), "--max-length", str(settings["max_length"]),
        "--seed", str(settings.get("seed", SEED)), "--deadline", str(deadline), "--device", device,
        "--threads", str(threads), "--save-every", "100000",
    ]
    return command + (["--init", str(init)] if init else [])


def best_entailment(work: Path, base: Path, windows: list[dict], device: str) -> list[float]:
    """Per claim, the best window's P(entailment), as the engine would score the claim."""
    import torch
    from transformers import AutoTokenizer

    from train.train import CrossEncoder, probabilities

    model = CrossEncoder(base)
    model.load_state_dict(torch.load(work / "model.pt", map_location="cpu"))
    model.to(device)
    pairs = [(i, {"hypothesis": row["claim"], "premise": window})
             for i, row in enumerate(windows) for window in row["windows"]]
    probs = probabilities(model, AutoTokenizer.from_pretrained(str(base)), [pair for _, pair in pairs], 256, device)
    best = [0.0] * len(windows)
    for (i, _), p in zip(pairs, probs):
        best[i] = max(best[i], p[0])
    return best


def dev_auc(best: list[float], windows: list[dict]) -> dict:
    """AUC of the best window's P(entailment) per dev set (reported, never what picks the run)."""
    result = {}
    for name in sorted({row["set"] for row in windows}):
        chosen = [i for i, row in enumerate(windows) if row["set"] == name]
        result[name] = round(auc([best[i] for i in chosen], [windows[i]["supported"] for i in chosen]), 4)
    defined = [value for value in result.values() if value == value]  # a set with one class has no AUC
    result["mean"] = round(sum(defined) / len(defined), 4) if defined else 0.0
    return result


def contrast_scores(best: list[float], windows: list[dict]) -> dict:
    """On the development contrast set: AUC of true against false claims, and the share of its
    polarity, antonym and role-reversal claims the model alone puts below P(entailment) 0.5."""
    binding = [p for p, row in zip(best, windows) if row["kind"] in BINDING_KINDS]
    return {"auc": _rounded(auc(best, [row["supported"] for row in windows])),
            "binding_below_half": round(sum(p < 0.5 for p in binding) / len(binding), 4) if binding else None}


def _rounded(value: float) -> float | None:
    """An AUC for report.json: None where it is undefined (one class only), which strict JSON can read."""
    return round(value, 4) if value == value else None


def selection_score(run: dict) -> float:
    """What picks the run that comes back: the mean of its held-out AUC (training rows it never saw)
    and its AUC on the development contrast set. Never the dev sets, which only measure."""
    values = [run.get("heldout_auc"), run.get("contrast", {}).get("auc")]
    values = [v for v in values if v is not None and v == v]
    return sum(values) / len(values) if values else 0.0


def soup_of(names: list[str], work: Path, report: dict, score) -> None:
    """Average the finished stage-2 runs (same stage-1 start) into ``work/soup``, scored like a run."""
    import torch

    states = [{k: v.numpy() for k, v in torch.load(work / name / "model.pt", map_location="cpu").items()}
              for name in names]
    folder = work / "soup"
    folder.mkdir(exist_ok=True)
    torch.save({k: torch.from_numpy(v) for k, v in average(states).items()}, folder / "model.pt")
    report["runs"]["soup"] = {"averaged": names, **score(folder)}
    print(json.dumps({"soup": report["runs"]["soup"]}), flush=True)


def preflight(device: str) -> dict:
    """Fail in seconds, not after minutes of a lent machine, when torch or the GPU is missing."""
    import torch
    import transformers

    if device.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit(f"--device {device}: torch {torch.__version__} sees no CUDA GPU")
    found = {"torch": torch.__version__, "transformers": transformers.__version__, "python": sys.version.split()[0]}
    if device.startswith("cuda"):
        found["gpu"] = torch.cuda.get_device_name(0)
    print(json.dumps(found), flush=True)
    return found


def sweep(args: argparse.Namespace) -> None:
    started = time.time()
    found = preflight(args.device)
    budget = args.minutes * 60
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    work: Path = args.work
    shutil.rmtree(work, ignore_errors=True)  # train.py resumes from what it finds: start clean
    base = rebuild_base(args.trip, work / "base")
    data = unzip_data(args.trip, work / "data", args.limit)
    windows, contrast = (_windows(args.trip / f"{name}.jsonl.gz", args.limit) for name in ("dev-windows", "contrast-windows"))
    held = held_out_windows(data / "heldout.jsonl", args.limit or HELDOUT_ROWS)
    variants = json.loads(args.stage2) if args.stage2 else STAGE2
    if not (data / BINDING_FILE).exists():
        variants = {name: settings for name, settings in variants.items() if not settings.get("binding")}
    report: dict = {"device": args.device, "found": found, "budget_s": budget, "stage1": STAGE1, "stage2": variants,
                    "runs": {}}

    def log_of(name: str) -> Path:
        return work / f"{name}.log"

    def scores(folder: Path) -> dict:
        found = {"dev_auc": dev_auc(best_entailment(folder, base, windows, args.device), windows),
                 "heldout_auc": _rounded(auc(best_entailment(folder, base, held, args.device),
                                             [row["supported"] for row in held]))}
        if contrast:
            found["contrast"] = contrast_scores(best_entailment(folder, base, contrast, args.device), contrast)
        return found

    def finish(name: str, folder: Path, code: int) -> None:
        entry: dict = {"exit": code, "seconds": round(time.time() - started)}
        if (folder / "done.json").exists():
            entry.update(json.loads((folder / "done.json").read_text()))
            entry.update(scores(folder))
        report["runs"][name] = entry
        print(json.dumps({name: {k: entry.get(k) for k in ("exit", "seconds", "steps", "planned_steps", "heldout_auc",
                                                           "contrast", "dev_auc")}}), flush=True)

    cores = os.cpu_count() or 2
    stage1 = work / "stage1"
    with open(log_of("stage1"), "w") as log:
        code = subprocess.call(train_command(data, stage1, base, STAGE1, started + STAGE1_SHARE * budget,
                                             args.device, cores), stdout=log, stderr=subprocess.STDOUT)
    finish("stage1", stage1, code)
    if (stage1 / "model.pt").exists():
        running = {}
        for name, settings in variants.items():
            log = open(log_of(name), "w")  # noqa: SIM115 - closed when the run ends
            command = train_command(data, work / name, base, settings, started + STAGE2_SHARE * budget,
                                    args.device, max(1, cores // len(variants)), init=stage1)
            running[name] = (subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT), log)
        for name, (process, log) in running.items():
            code = process.wait()
            log.close()
            finish(name, work / name, code)
    finished = [name for name in variants if "dev_auc" in report["runs"].get(name, {})]
    if args.soup and len(finished) > 1:
        soup_of(finished, work, report, scores)
    # Stage 1 alone is general NLI: it competes only when no stage-2 variant finished.
    scored = {name: selection_score(run) for name, run in report["runs"].items() if "dev_auc" in run}
    if len(scored) > 1:
        scored.pop("stage1")
    if scored:
        report["best"] = best = max(scored, key=scored.get)
        import torch

        state = torch.load(work / best / "model.pt", map_location="cpu")
        weights = out / "best.npz"
        np.savez(weights, **{k: v.to(torch.float16).numpy() for k, v in state.items()})
        split(weights)
        weights.unlink()
    report["seconds"] = round(time.time() - started)
    (out / "report.json").write_text(json.dumps(report, indent=2))
    with open(out / "logs.txt", "w") as handle:
        for name in ["stage1", *variants]:
            if log_of(name).exists():
                lines = log_of(name).read_text().splitlines()
                handle.write(f"== {name}\n" + "\n".join(lines[:5] + ["…"] + lines[-15:]) + "\n")
    print(json.dumps({"best": report.get("best"), "seconds": report["seconds"]}), flush=True)


# ---------------------------------------------------------------- unpack (here)


def unpack(args: argparse.Namespace) -> None:
    """Join each returned folder's parts; several folders (runs of the same recipe with other
    seeds) are averaged weight by weight into one model (a "model soup")."""
    import torch
    from transformers import AutoTokenizer

    from train.train import default_base

    args.out.mkdir(parents=True, exist_ok=True)
    states, reports = [], []
    for returned in args.returned:
        joined = join(returned, "best.npz", args.out / "best.npz")
        with np.load(joined) as weights:
            states.append({name: weights[name] for name in weights.files})
        joined.unlink()
        reports.append(json.loads((returned / "report.json").read_text()))
    torch.save({name: torch.from_numpy(value) for name, value in average(states).items()}, args.out / "model.pt")
    AutoTokenizer.from_pretrained(str(default_base())).save_pretrained(str(args.out / "tokenizer"))
    recipe = [{"device": report["found"].get("gpu", report["device"]), "stage1": {"seed": SEED, **report["stage1"]},
               "stage2": {"seed": SEED, **report["stage2"][name]}}
              for report in reports for name in report["runs"][report["best"]].get("averaged", [report["best"]])]
    (args.out / "done.json").write_text(json.dumps({"recipe": recipe, "sweeps": reports}, indent=2))
    for report in reports:
        best = report["runs"][report["best"]]
        print(json.dumps({"best": report["best"], **{key: best.get(key) for key in (
            "heldout_auc", "contrast", "dev_auc", "steps", "planned_steps")}}))
    print(json.dumps({"checkpoint": str(args.out), "sweeps": len(states)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("pack", help="here: write .trip/ for the run's carry")
    p.add_argument("--data", type=Path, default=HERE / "work" / "data", help="a build_data.py output folder")
    p.add_argument("--dev", type=Path, action="append", required=True, help="bench dev set (repeatable)")
    p.add_argument("--binding", type=Path, help="binding rows (train.binding_rows' stage3.jsonl) for the binding variants")
    p.add_argument("--out", type=Path, default=HERE.parent / ".trip")
    p.set_defaults(run=pack)
    s = commands.add_parser("sweep", help="there: train stage 1 and the stage-2 variants, return the best")
    s.add_argument("--trip", type=Path, default=HERE.parent / ".trip")
    s.add_argument("--out", type=Path, required=True, help="folder that comes back ($OUT)")
    s.add_argument("--work", type=Path, default=Path("/tmp/citemark-trip"))
    s.add_argument("--minutes", type=float, default=8.0, help="time budget for the whole sweep")
    s.add_argument("--device", default="cuda")
    s.add_argument("--limit", type=int, default=None, help="rows per file and dev claims (a dry run)")
    s.add_argument("--stage2", default=None, help='variants as JSON instead of STAGE2: {"name": {"epochs": …, "lr": …, '
                   '"max_length": …, "seed": …}, …}')
    s.add_argument("--soup", action="store_true",
                   help="also average the finished stage-2 runs; the average competes with them")
    s.set_defaults(run=sweep)
    u = commands.add_parser("unpack", help="here: join what came back into a train.py work folder")
    u.add_argument("--returned", type=Path, action="append", required=True,
                   help="a folder a run's files came back to (repeat to average several runs)")
    u.add_argument("--out", type=Path, default=HERE / "work" / "gpu")
    u.set_defaults(run=unpack)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
