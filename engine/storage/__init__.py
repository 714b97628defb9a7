"""Write-ahead log, checkpoints, recovery, catalog image and row codec: called at commit and at start only."""
