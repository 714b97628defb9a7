"""The helpers that generated code and function implementations call (three-valued logic, LIKE, size-checked builders)."""
