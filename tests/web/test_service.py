"""The composition root's process set-up: the start-up heap is frozen after a warm-up statement."""

import gc

import engine
from web.service import freeze_startup_heap


def test_startup_heap_is_frozen_after_a_warm_up_statement():
    db = engine.Database()
    gc.unfreeze()
    try:
        freeze_startup_heap(db)
        assert gc.get_freeze_count() > 0
        assert list(db.session().execute("SELECT 2")) == [(2,)]
    finally:
        gc.unfreeze()
