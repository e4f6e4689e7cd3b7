"""Look at the wrong boards of a dumped game again: `python -m tests.e2e.show DUMP [FRAME ...]`
lists them, or prints the given frames with the log's sentences around them."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

from tests.e2e.check import judge_frames
from tests.e2e.truth import replay


def main(argv: list[str]) -> int:
    data = pickle.loads(Path(argv[0]).read_bytes())
    frames = data["frames"]
    story = replay(data["record"], data["me"], data["names"])
    report = judge_frames(frames, story, data["names"], data["me"])
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
