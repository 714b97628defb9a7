"""AST to typed bound expressions: names, scopes, types, coercion and folding."""
