"""twistd plugin: `twistd queryhttp` runs the query HTTP service (see web.tap)."""

from twisted.application.service import ServiceMaker

queryhttp = ServiceMaker(
    "queryhttp", "web.tap", "SQL over HTTP, speaking the Databend query protocol.", "queryhttp"
)
