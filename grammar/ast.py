"""SQL abstract syntax tree: frozen dataclasses, each carrying its source position; every node is
reached as grammar.ast.<Name>.

This module only gathers the node families, in a fixed order: expressions and queries
(grammar.ast_expr), the core statements (grammar.ast_statements), then DDL beyond CREATE/DROP,
DML beyond INSERT/UPDATE/DELETE, stages, users, routines (functions, sequences, procedures) and session
variables, each importing only the families before it."""

from __future__ import annotations

from grammar.ast_base import Node, Pos
from grammar.ast_ddl import *  # noqa: F403
from grammar.ast_ddl_more import *  # noqa: F403
from grammar.ast_dml import *  # noqa: F403
from grammar.ast_expr import *  # noqa: F403
from grammar.ast_expr import literal
from grammar.ast_routines import *  # noqa: F403
from grammar.ast_session import *  # noqa: F403
from grammar.ast_stages import *  # noqa: F403
from grammar.ast_statements import *  # noqa: F403
from grammar.ast_users import *  # noqa: F403

__all__ = ["Node", "Pos", "literal"]  # with the names of the families above
