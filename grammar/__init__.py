"""SQL text -> AST (grammar/sql.lark, parsed with Lark LALR)."""
