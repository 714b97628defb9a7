"""queryhttp's HTTP service: the Databend query protocol over Twisted and Klein."""
