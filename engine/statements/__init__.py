"""One handler per statement kind (DDL, DML, COPY, SHOW, users, views, EXPLAIN) and the writers' commit point."""
