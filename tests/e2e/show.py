"""Look at dumped games again (`python -m tests.e2e.run --dump DIR`) with the check as it is now:
`python -m tests.e2e.show DIR` sums up every dump in DIR; `python -m tests.e2e.show DUMP
[FRAME ...]` lists one screen's wrong boards, or prints the given frames with the log's
sentences around them."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

from tests.e2e.check import Report, judge_frames
from tests.e2e.truth import Story, replay


def load(path: Path) -> tuple[dict[str, Any], Story, Report]:
    data: dict[str, Any] = pickle.loads(path.read_bytes())
    story = replay(data["record"], data["me"], data["names"], data.get("private", False))
    keys = [t for t, _ in data.get("keys", ())]
    return data, story, judge_frames(data["frames"], story, data["names"], data["me"], keys)


def summary(folder: Path) -> None:
    totals = {
        "screens": 0,
        "frames": 0,
        "covered": 0,
        "log cut": 0,
        "wrong frames": 0,
        "wrong boards": 0,
        "at a prompt": 0,
    }
    for path in sorted(folder.glob("*.pickle")):
        data, _, report = load(path)
        kinds = {k: report.count(k) for k in ("stale", "ahead", "wrong", "unaligned")}
        print(f"{path.name}: {data['label']}: {report.frames} frames, {report.bad} wrong {kinds}")
        totals["screens"] += 1
        totals["frames"] += report.frames
        totals["covered"] += report.covered
        totals["log cut"] += report.log_cut
        totals["wrong frames"] += report.bad
        totals["wrong boards"] += len(report.episodes)
        totals["at a prompt"] += sum(1 for e in report.episodes if e.prompt)
    print(totals)


def main(argv: list[str]) -> int:
    target = Path(argv[0])
    if target.is_dir():
        summary(target)
        return 0
    data, story, report = load(target)
    frames = data["frames"]
    wanted = {int(x) for x in argv[1:]}
    for e in report.episodes:
        for v in e.verdicts:
            if wanted and v.frame not in wanted:
                continue
            print(f"[{'at a prompt' if e.prompt else 'between prompts'}] {v.line(frames, story)}")
            if v.frame in wanted:
                print(frames[v.frame].text)
                if v.sentence is not None:
                    print("log:", story.sentences[max(0, v.sentence - 3) : v.sentence + 4])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
