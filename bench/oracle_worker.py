"""Runs SQL in the real Databend engine (the `databend` PyPI wheel, embedded) for bench.oracle.

    ORACLE_PYTHON -m bench.oracle_worker < statements.json > answers.jsonl

Reads a JSON list of SQL texts; prints one JSON object per statement: {"types": [...],
"rows": [[...]]} with Databend's type names and canonical values (bench.oracle_values), or
{"error": code}. Needs only the wheel and pyarrow; imports nothing else of the project but the
value canonicaliser, so it runs in the oracle's own virtual environment.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile

from bench.oracle_values import canonical


def databend_type(debug: str) -> str:
    """A Databend DataType's Rust debug text -> its SQL display name ('Nullable(Int32)')."""
    text = debug
    text = re.sub(r"Decimal\(Decimal(?:128|256)\(DecimalSize \{ precision: (\d+), scale: (\d+) \}\)\)",
                  r"Decimal(\1, \2)", text)
    text = re.sub(r"Number\((\w+)\)", r"\1", text)
    return text.replace("Null", "NULL") if text == "Null" else text


def field_types(schema_text: str) -> list[str]:
    """The data types of a DataSchema's debug text, in order."""
    types = []
    for match in re.finditer(r"data_type: (.*?), computed_expr", schema_text):
        types.append(databend_type(match.group(1)))
    return types


def main() -> None:
    os.chdir(tempfile.mkdtemp(prefix="oracle-"))
    import databend  # noqa: PLC0415 - only in the oracle's environment

    ctx = databend.SessionContext()
    for sql in json.load(sys.stdin):
        try:
            frame = ctx.sql(sql)
            types = field_types(str(frame.schema()))
            rows = []
            for batch in frame.to_py_arrow():
                columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
                rows.extend([canonical(v) for v in row] for row in zip(*columns, strict=True))
            answer = {"types": types, "rows": rows}
        except Exception as exc:  # noqa: BLE001 - an error is an answer
            code = re.search(r"Code: (\d+)", str(exc))
            answer = {"error": int(code.group(1)) if code else -1}
        except BaseException as exc:  # a Rust panic (pyo3's PanicException is a BaseException)
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            answer = {"panic": str(exc)[:200]}  # no answer to compare with: the tester skips it
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
