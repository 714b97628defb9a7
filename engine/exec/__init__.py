"""The operators' run loops in bounded steps, memory accounting, and Result."""
