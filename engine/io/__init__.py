"""Stage file formats: CSV/TSV/NDJSON/Parquet readers and writers, and the conversion of their records."""
