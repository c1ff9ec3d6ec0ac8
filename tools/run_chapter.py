"""Execute one MyST chapter as a notebook, the way the book build does, and fail loudly.

Usage: python tools/run_chapter.py chapters/NAME.md [--timeout SECONDS]

Fails (exit 1) on a cell error or on any output to stderr (the book build treats those as
warnings, and warnings fail the build). Prints the total execution time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import jupytext
from nbclient import NotebookClient


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("chapter", type=Path)
    parser.add_argument("--timeout", type=int, default=1200)
    args = parser.parse_args()
    notebook = jupytext.read(args.chapter)
    client = NotebookClient(
        notebook, timeout=args.timeout, kernel_name="python3", resources={"metadata": {"path": str(args.chapter.parent)}}
    )
    start = time.perf_counter()
    client.execute()
    problems = []
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                problems.append(f"cell {index}: stderr: {output['text'][:500]}")
            if output.get("output_type") == "error":
                problems.append(f"cell {index}: {output['ename']}: {output['evalue']}")
    print(f"{args.chapter}: executed {len(notebook.cells)} cells in {time.perf_counter() - start:.1f} s")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
