"""Open transactions of client-side sessions, kept between two requests as Databend's HTTP
handler keeps them.

A client-side session lives in the client: each POST sends back the `session` object of the
previous answer. A statement that leaves its session's transaction Active has the transaction
kept here under the statement's query id, and its answer's session says `txn_state: "Active"`,
`need_sticky: true` and, in `internal` (an opaque JSON text), this server's id and that query
id. The next request sending that session resumes the transaction; a kept transaction nobody
resumes within the session limit (max_keep_session_secs) is dropped (rolled back), and the
request then fails with 4003. A session sent with `txn_state: "Fail"` starts in a failed
transaction (statements fail with 4002 until COMMIT or ROLLBACK).
"""

from __future__ import annotations

import uuid

from engine import (
    ACTIVE,
    AUTO_COMMIT,
    FAIL,
    INVALID_SESSION_STATE,
    SESSION_LOST,
    TRANSACTION_TIMEOUT,
    Transaction,
)
from web.errors import FailedToStart
from web.session_endpoints import internal_state

TXN_STATES = (AUTO_COMMIT, ACTIVE, FAIL)


def refused_txn_state(request_session: dict) -> str:
    """The txn_state of the answer to a request that could not start: an Active transaction
    is lost then (Fail), as Databend answers."""
    state = request_session.get("txn_state") or AUTO_COMMIT
    return FAIL if state == ACTIVE else state


class _Kept:
    __slots__ = ("user", "transaction", "expires_at")

    def __init__(self, user: str, transaction: Transaction, expires_at: float):
        self.user = user
        self.transaction = transaction
        self.expires_at = expires_at


class TransactionStore:
    """Transactions of client-side sessions between two requests, by the id of the query that
    left them open; at most `max_kept` (the soonest to expire goes first), each `keep_secs`."""

    def __init__(self, clock, max_kept: int, keep_secs: int):
        self.clock = clock
        self.max_kept = max_kept
        self.keep_secs = keep_secs
        self.node_id = uuid.uuid4().hex  # this server (a transaction lives on one server only)
        self._kept: dict[str, _Kept] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def keep(self, query_id: str, user: str, transaction: Transaction) -> None:
        """The query `query_id` ended with its session's transaction open: keep it."""
        if len(self._kept) >= self.max_kept:
            self.sweep()
        while self._kept and len(self._kept) >= self.max_kept:
            del self._kept[min(self._kept, key=lambda k: self._kept[k].expires_at)]
        if self.max_kept > 0:
            self._kept[query_id] = _Kept(user, transaction, self.clock.seconds() + self.keep_secs)

    def resume(self, request_session: dict, user: str, engine_session) -> None:
        """Give `engine_session` the transaction the request's session says it has: the kept
        one for Active (FailedToStart when it is not here: 5112, 5111 or 4003), a failed one
        for Fail."""
        state = request_session.get("txn_state")
        if state == FAIL:
            engine_session.set_transaction(Transaction(FAIL))
            return
        if state != ACTIVE:
            return
        internal = internal_state(request_session.get("internal"))
        node = internal.get("last_node_id")
        if not isinstance(node, str) or not node:
            raise FailedToStart(INVALID_SESSION_STATE, "Transaction is active but missing server_info")
        if node != self.node_id:
            raise FailedToStart(SESSION_LOST, f"Transaction aborted because server restart or route error: "
                                              f"expecting server {node}, current one is {self.node_id}")
        query_ids = internal.get("last_query_ids")
        if not isinstance(query_ids, list) or not query_ids or not isinstance(query_ids[0], str):
            raise FailedToStart(INVALID_SESSION_STATE, "Invalid transaction state: transaction is active "
                                                       "but last_query_ids is empty")
        kept = self._kept.get(query_ids[0])
        if kept is not None and kept.expires_at < self.clock.seconds():
            del self._kept[query_ids[0]]
            kept = None
        if kept is None or kept.user != user:
            raise FailedToStart(TRANSACTION_TIMEOUT, f"Transaction timeout: last_query_id {query_ids[0]} "
                                                     f"not found on this server")
        del self._kept[query_ids[0]]
        engine_session.set_transaction(kept.transaction)

    def sweep(self) -> None:
        now = self.clock.seconds()
        for query_id in [k for k, kept in self._kept.items() if kept.expires_at < now]:
            del self._kept[query_id]
