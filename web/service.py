"""Composition root: builds the engine, the HTTP app and the listener on the global reactor."""

from __future__ import annotations

from twisted.application import service
from twisted.internet.endpoints import serverFromString
from twisted.logger import Logger
from twisted.web.server import Site

import engine
from web.app import QueryApp


class QueryHTTPService(service.Service):
    log = Logger()

    def __init__(self, description: str, options):
        self.description = description
        self.options = options
        self.port = None

    def startService(self):
        from twisted.internet import reactor

        super().startService()
        app = QueryApp(engine.Database())
        site = Site(app.resource())
        site.noisy = False
        endpoint = serverFromString(reactor, self.description)
        d = endpoint.listen(site)
        d.addCallback(self._listening)
        d.addErrback(self._failed)
        return d

    def _listening(self, port):
        self.port = port
        addr = port.getHost()
        self.log.info(
            "queryhttp listening on http://{host}:{port}/v1/query", host=addr.host, port=addr.port
        )

    def _failed(self, failure):
        from twisted.internet import reactor

        self.log.failure("queryhttp could not listen on {description}", failure,
                         description=self.description)
        reactor.stop()

    def stopService(self):
        super().stopService()
        if self.port is not None:
            return self.port.stopListening()
