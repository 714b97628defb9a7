"""BEGIN, COMMIT and ROLLBACK / ABORT as statements (engine.catalog.transactions holds the transactions)."""

from __future__ import annotations

from engine.catalog.transactions import Transaction, end_transaction
from engine.exec.result import Progress, Result
from grammar import ast as A


def run_transaction_statement(session, ctx, stmt: A.TransactionStatement) -> Result:
    """BEGIN (nothing when a transaction is open or failed already), COMMIT, ROLLBACK / ABORT."""
    if stmt.action == "BEGIN":
        if session.transaction is None:
            session.transaction = Transaction(server_memory=session.db.memory)
    else:
        end_transaction(session, commit=stmt.action == "COMMIT")
    return Result([], iter([]), progress=Progress())
