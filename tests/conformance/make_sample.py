"""Cut the CI sample: the first N whole records of chosen sqllogictest files, copied verbatim.

    python tests/conformance/make_sample.py ../shared/conformance/slt

Re-run it only to change the sample; the copied files are committed under data/.
"""

from __future__ import annotations

import sys
from pathlib import Path

# upstream path under test/ -> number of statement/query records to keep
SAMPLE = {
    "select1.test": 250,
    "select3.test": 200,
    "select4.test": 150,
    "evidence/in1.test": 0,
    "evidence/in2.test": 0,
    "evidence/slt_lang_droptable.test": 0,
    "random/expr/slt_good_0.test": 500,
    "random/aggregates/slt_good_0.test": 400,
    "random/groupby/slt_good_0.test": 300,
    "random/select/slt_good_0.test": 300,
    "index/commute/10/slt_good_0.test": 200,
    "index/in/10/slt_good_5.test": 200,
    "index/random/10/slt_good_0.test": 200,
    "index/orderby/10/slt_good_0.test": 150,
}


def first_records(text: str, limit: int) -> str:
    """The text up to and including the limit-th statement/query record (0: everything)."""
    if not limit:
        return text
    lines = text.split("\n")
    kept, count, block = [], 0, []
    for line in lines + [""]:
        if line.strip():
            block.append(line)
            continue
        if block:
            kept.extend(block)
            heads = [b.split()[0] for b in block if not b.startswith("#") and b.split()]
            heads = [h for h in heads if h not in ("skipif", "onlyif")]
            if heads and heads[0] in ("statement", "query"):
                count += 1
                if count >= limit:
                    return "\n".join(kept) + "\n"
            block = []
        kept.append(line)
    return "\n".join(kept)


def main(source: str) -> None:
    out = Path(__file__).with_name("data")
    for rel, limit in SAMPLE.items():
        text = (Path(source) / "test" / rel).read_text(encoding="utf-8", errors="surrogateescape")
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(first_records(text, limit), encoding="utf-8", errors="surrogateescape")


if __name__ == "__main__":
    main(sys.argv[1])
