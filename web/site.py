"""twisted.web plumbing: a lean request (bounded body, no form parsing) and the Site."""

from __future__ import annotations

import io

from twisted.web import server


class LeanRequest(server.Request):
    """A request that skips form-body parsing (twisted.web would parse every POST's
    Content-Type with the slow stdlib email parser) and stops buffering a body beyond
    `max_body_bytes`; the handler then answers 413."""

    max_body_bytes = 10 * 1024 * 1024

    def __init__(self, *args, **kwargs):
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)
        self.body_too_large = False

    def gotLength(self, length):
        if length is not None and length > self.max_body_bytes:
            self.body_too_large = True
            self.content = io.BytesIO()
        else:
            super().gotLength(length)

    def handleContentChunk(self, data):
        if self.body_too_large:
            return
        if self.content.tell() + len(data) > self.max_body_bytes:
            self.body_too_large = True
            self.content = io.BytesIO()
            return
        super().handleContentChunk(data)


class QuerySite(server.Site):
    """The Site of the service; writes an access log only when asked to."""

    def __init__(self, root, *, max_body_bytes: int, access_log: bool, **kwargs):
        super().__init__(root, **kwargs)
        self.noisy = False
        self.displayTracebacks = False
        self._access_log = access_log
        self.requestFactory = type("BoundedLeanRequest", (LeanRequest,),
                                   {"max_body_bytes": max_body_bytes})

    def log(self, request):
        if self._access_log:
            super().log(request)
