"""The knowledge base: systems, runs, configurations and measurements, with provenance.

SQLite by default (one file, default_store_path()); PostgreSQL for a site, given a
`postgresql://` URL. Both are the same Store on SQLAlchemy Core with one schema definition
(iotuner.store._schema), and one contract test suite runs against both.

    store = open_store()                       # or a path, sqlite:///..., postgresql://...
    store = open_named_store(args.db)          # that, else $IOTUNER_DB, else the default
    with store.transaction():                  # all or nothing
        run = store.add_run(uid, "bench", source="sweep.bench.jsonl")
        store.add_measurements(run, measurements, system, space="romio-ufs")
    frame = store.summary()                    # measurement.SUMMARY_COLUMNS + cfg:<name>
"""

from iotuner._dbpath import default_store_path
from iotuner.store._frames import MEASUREMENT_COLUMNS, summarize_repeats
from iotuner.store._named import open_named_store
from iotuner.store._open import open_store
from iotuner.store._schema import RUN_KINDS, SCHEMA_VERSION
from iotuner.store._store import Store
from iotuner.store._values import Record, StoreError, canonical_config

__all__ = [
    "MEASUREMENT_COLUMNS",
    "RUN_KINDS",
    "SCHEMA_VERSION",
    "Record",
    "Store",
    "StoreError",
    "canonical_config",
    "default_store_path",
    "open_named_store",
    "open_store",
    "summarize_repeats",
]
