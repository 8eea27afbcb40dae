"""Cut a cosmic-ray session down to a seeded sample of its mutants (docs/mutation-testing.md).

    python benchmarks/mutation/sample.py SESSION.sqlite COUNT [--seed 535]

Two kinds of work item are marked skipped, so that `cosmic-ray exec` runs only the rest:

- mutants inside a type annotation: every module here starts with `from __future__ import
  annotations` and nothing reads its annotations at run time, so `int | None` turned into
  `int & None` changes no behaviour; they are counted and reported, never run;
- all but COUNT of the others, drawn with random.Random(seed) from the items sorted by module,
  position, operator and occurrence, so that the same source and seed give the same sample.

A session already cut is left as it is (only items without a result are considered).
"""

from __future__ import annotations

import argparse
import ast
import random
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import WorkerOutcome, WorkItem, WorkResult


def annotation_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The (start, end) positions of every annotation in a module, as cosmic-ray counts them
    (1-based lines, 0-based columns)."""
    spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        for ann in found:
            if ann is not None and ann.end_lineno is not None and ann.end_col_offset is not None:
                spans.append(((ann.lineno, ann.col_offset), (ann.end_lineno, ann.end_col_offset)))
    return spans


def in_annotation(
    start: tuple[int, int], end: tuple[int, int], spans: list[tuple[tuple[int, int], tuple[int, int]]]
) -> bool:
    return any(s <= start and end <= e for s, e in spans)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("session", type=Path)
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=535)
    args = parser.parse_args()
    with use_db(str(args.session), WorkDB.Mode.open) as db:
        # Job ids are fresh uuids at each `cosmic-ray init`; the mutation itself is what is stable.
        pending = sorted(
            db.pending_work_items,
            key=lambda item: (
                str(item.mutations[0].module_path),
                tuple(item.mutations[0].start_pos),
                item.mutations[0].operator_name,
                item.mutations[0].occurrence,
            ),
        )
        spans: dict[Path, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
        annotated: list[WorkItem] = []
        runnable: list[WorkItem] = []
        for item in pending:
            m = item.mutations[0]
            if m.module_path not in spans:
                spans[m.module_path] = annotation_spans(m.module_path)
            start, end = tuple(m.start_pos), tuple(m.end_pos)
            (annotated if in_annotation(start, end, spans[m.module_path]) else runnable).append(item)
        drawn = random.Random(args.seed).sample(range(len(runnable)), min(args.count, len(runnable)))
        chosen = {runnable[k].job_id for k in drawn}
        db.set_multiple_results(
            [i.job_id for i in annotated],
            WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="in a type annotation"),
        )
        db.set_multiple_results(
            [i.job_id for i in runnable if i.job_id not in chosen],
            WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=f"not in the sample (seed {args.seed})"),
        )
        print(
            f"{args.session}: {len(pending)} mutants, {len(annotated)} in annotations, "
            f"{len(runnable)} others, {len(chosen)} sampled (seed {args.seed})"
        )


if __name__ == "__main__":
    main()
