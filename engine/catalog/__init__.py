"""The only owner of shared mutable state: databases, tables, views, stages, users, grants, processes, transactions, and each client session's temporary tables and kept results."""
