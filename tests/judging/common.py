"""Small deterministic judges, written by the tests into their own tmp folders, and a campaign
for them to judge."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

JUDGE_HEAD = "import json, sys, os\ndoc = json.load(sys.stdin)\n"

ANSWERS = {
    # scores from the run id's length, so each item gets its own, every time the same
    "ok": JUDGE_HEAD + "n = len(doc['run']['run_id']) + len(doc['fixture']['id'])\n"
    "print(json.dumps({'scores': {'correctness': 1 + n % 5, 'scope': 3}, 'note': 'fine'}))\n",
    "slow": "import time\ntime.sleep(30)\n",
    "exit": "import sys\nsys.stderr.write('model unavailable\\n')\nsys.exit(3)\n",
    "garbage": "print('I think it is a 4 or so')\n",
    "off_scale": JUDGE_HEAD + "print(json.dumps({'scores': {'correctness': 9, 'scope': 3}}))\n",
}


def write_judge(folder: Path, kind: str, extra: str = "") -> str:
    """A judge script of `kind` in `folder`; returns its command line."""
    path = folder / f"judge_{kind}.py"
    path.write_text(ANSWERS[kind] + extra, encoding="utf-8")
    return f"{sys.executable} {path}"


def records(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
